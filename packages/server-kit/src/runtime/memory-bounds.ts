import type { Env } from '../limits.js';
import { freeCompilerMemoryPromptly } from './compiler-memory.js';
import { boundOldGenerationGrowth } from './old-generation.js';
import { boundYoungGeneration } from './young-generation.js';

/** What a bin sets about its own memory before it serves: V8's heap bounds and the compiler's memory. */
export function boundMemory(env: Env): void {
  boundYoungGeneration(env);
  boundOldGenerationGrowth(env);
  freeCompilerMemoryPromptly();
}
