import { specsFor } from '@switchyard/server-kit';
import type { TransitConfig } from '../config.js';
import type { TransitState } from '../services.js';

/** Builds a transit tool spec: schemas inferred, `call.state` typed as the opened transit domain. */
export const { tool, prompt } = specsFor<TransitState, TransitConfig>();

/** `when` of the TfL tool: offered only when the `tfl` provider is configured. */
export const tflConfigured = (config: TransitConfig): boolean => config.tfl !== undefined;

/** `when` of the HSL tools: offered only when the `hsl` provider is configured. */
export const hslConfigured = (config: TransitConfig): boolean => config.hsl !== undefined;
