// Loaded into a server with --import by bench/allocation.ts: SIGUSR2 starts the inspector's sampling heap profiler
// (objects collected by young and old GC included, so that what a call allocates counts, not what it keeps), and
// the process's exit writes the profile to HEAP_PROFILE_FILE.
import fs from 'node:fs';
import inspector from 'node:inspector';

const session = new inspector.Session();
session.connect();
let sampling = false;
process.on('SIGUSR2', () => {
  session.post('HeapProfiler.enable');
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  sampling = true;
});
process.on('exit', () => {
  if (!sampling) return;
  // A session in the same thread answers synchronously, so the profile is written before the process ends.
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error === null) fs.writeFileSync(process.env.HEAP_PROFILE_FILE, JSON.stringify(result.profile));
  });
});
