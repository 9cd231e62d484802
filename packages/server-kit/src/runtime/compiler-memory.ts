import v8 from 'node:v8';

/** The V8 flag this sets: given by the operator on Node's command line, it decides and this stays out. */
const FLAG = /--(no-)?maglev-destroy-on-background\b/;

/**
 * Frees each finished Maglev compilation's memory as its code is installed, on the main thread, instead of in a
 * task for V8's worker threads. Those tasks wait behind the compilations themselves, so while a fresh server warms
 * up, hundreds of finished jobs' zones were alive at once (switchyard-transit: 145-200 zones, 11-27 MiB, in its
 * first 1,000 calls), and glibc keeps what they took in the workers' malloc arenas after they are freed; with
 * this, the peak is 5-9 MiB, at no measurable CPU per call.
 */
export function freeCompilerMemoryPromptly(): void {
  if (FLAG.test(process.execArgv.join(' '))) return;
  v8.setFlagsFromString('--no-maglev-destroy-on-background');
}
