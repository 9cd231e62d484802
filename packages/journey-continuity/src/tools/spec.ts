import { specsFor } from '@switchyard/server-kit';
import type { JourneyConfig } from '../config.js';
import type { JourneyState } from '../open.js';

/** Builds a journey tool spec: schemas inferred, `call.state` typed as the opened journey domain. */
export const { tool, resource, prompt } = specsFor<JourneyState, JourneyConfig>();
