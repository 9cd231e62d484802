/** A server's stderr lines that are JSON log entries, parsed (the start-up report and markers are not). */
export function logEntries(lines: readonly string[]): Record<string, unknown>[] {
  return lines.flatMap((line) => {
    try {
      const entry: unknown = JSON.parse(line);
      return typeof entry === 'object' && entry !== null ? [entry as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}

/** What the preloaded detector reports, and the stack overflow that deep arguments once caused. */
const DEFECT = /^HARDENING_(UNHANDLED_REJECTION|UNCAUGHT_EXCEPTION|WARNING) |RangeError/;

/** A server's error-level log entries and defect lines: both empty for a server that coped. */
export function troubleIn(lines: readonly string[]): {
  errors: Record<string, unknown>[];
  defects: string[];
} {
  return {
    errors: logEntries(lines).filter((entry) => entry.level === 'error'),
    defects: lines.filter((line) => DEFECT.test(line)),
  };
}
