// Loaded into the measured server with NODE_OPTIONS=--import (benchmark only): on SIGUSR2 it writes the
// process's memory by part to MEMORY_REPORT_FILE, so that an RSS figure can say where the memory is.
import fs from 'node:fs';
import v8 from 'node:v8';

const file = process.env.MEMORY_REPORT_FILE;
if (file !== undefined) {
  process.on('SIGUSR2', () => {
    const spaces = Object.fromEntries(
      v8.getHeapSpaceStatistics().map((space) => [space.space_name, space.physical_space_size]),
    );
    const { rss, arrayBuffers } = process.memoryUsage();
    const peakMalloced = v8.getHeapStatistics().peak_malloced_memory;
    fs.writeFileSync(file, JSON.stringify({ rss, spaces, arrayBuffers, peakMalloced }));
  });
}
