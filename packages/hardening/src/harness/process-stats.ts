import fs from 'node:fs';

/** A size field of a live process's /proc/PID/status in KiB (Linux); undefined when it cannot be read. */
function statusKib(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(status);
    return match?.[1] === undefined ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

/** Resident set size of a live process in KiB; undefined when it cannot be read. */
export function rssKib(pid: number): number | undefined {
  return statusKib(pid, 'VmRSS');
}

/** Open file descriptors of a live process (Linux), to spot leaked sockets; undefined when unreadable. */
export function openFileCount(pid: number): number | undefined {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return undefined;
  }
}

/**
 * Resets a live process's peak resident set size (VmHWM) to its current size (Linux: `5` to
 * /proc/PID/clear_refs), so that the next `peakRssKib` is the peak since now. False when it cannot.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** The peak resident set size of a live process in KiB since it started or `resetPeakRss`. */
export function peakRssKib(pid: number): number | undefined {
  return statusKib(pid, 'VmHWM');
}
