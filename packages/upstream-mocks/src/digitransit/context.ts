// What every resolver sees: the clock, the router and the data scenario of this request.
import type { ScenarioData } from './scenario-data.js';

/** A source object for graphql's executor. */
export type Node = Record<string, unknown>;

export interface ResolverContext extends ScenarioData {
  readonly now: Date;
  readonly router: string;
  /** Index of this plan request among those of the same scenario selection (counts up on each call). */
  nextPlanCall(): number;
}

/** A resolver stored on a source object; graphql's default field resolver calls it with (args, context). */
export type FieldFn = (args: Record<string, unknown>, context: ResolverContext) => unknown;

/** Base64 of `Type:id`, OTP's Relay global id (`Stop:HSL:1040129` -> `U3RvcDpIU0w6MTA0MDEyOQ==`). */
export function relayId(type: string, id: string): string {
  return Buffer.from(`${type}:${id}`, 'utf8').toString('base64');
}
