import type { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { callTool } from '../harness/mcp-client.js';
import { classify } from '../outcome.js';
import type { SecretScanner } from '../sentinels.js';
import type { ToolContract } from '../tools.js';
import { validArbitrary, type ArbitraryOptions } from './arbitraries.js';
import { assertSupported, pathText } from './json-schema.js';
import { invalidArbitrary } from './mutations.js';
import { isValidAgainst } from './validator.js';

export interface FuzzCase {
  /** What the generator meant: a valid input, or which mutation made it invalid. */
  intent: string;
  value: unknown;
}

/** Valid and invalid inputs for one tool, from its committed JSON Schema, in about equal numbers. */
export function fuzzCases(tool: ToolContract, options: ArbitraryOptions = {}): fc.Arbitrary<FuzzCase> {
  assertSupported(tool.inputJsonSchema);
  const valid = validArbitrary(tool.inputJsonSchema, options);
  return fc.oneof(
    valid.map((value) => ({ intent: 'valid', value })),
    invalidArbitrary(tool.inputJsonSchema, valid).map((m) => ({
      intent: `invalid: ${m.kind} at ${pathText(m.path)}`,
      value: m.value,
    })),
  );
}

/** `value` with every string trimmed, at any depth. */
export function trimStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map(trimStrings);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimStrings(item)]));
  }
  return value;
}

export interface FuzzStats {
  calls: number;
  valid: number;
  invalid: number;
  successes: number;
  /** Error codes seen, with counts. */
  codes: Record<string, number>;
}

export interface FuzzRun {
  client: Client;
  tool: ToolContract;
  seed: number;
  numRuns: number;
  options?: ArbitraryOptions;
  scanner?: SecretScanner;
  /** A call taking longer than this is a hang (default 20 s). */
  callTimeoutMs?: number;
  /** Extra checks on every answer (e.g. the server is still alive). */
  after?: () => void;
}

/**
 * Calls the tool with every generated input and checks the contract's promise: a contract-shaped success or
 * error, never an internal error, never a hang; an input the published schema rejects gets the contract's
 * validation error with a message. fast-check shrinks a failure and reports it with its seed and path.
 */
export async function fuzzTool(run: FuzzRun): Promise<FuzzStats> {
  const stats: FuzzStats = { calls: 0, valid: 0, invalid: 0, successes: 0, codes: {} };
  const { tool, client } = run;
  await fc.assert(
    fc.asyncProperty(fuzzCases(tool, run.options), async (input) => {
      const schemaValid = isValidAgainst(tool.inputJsonSchema, input.value);
      stats.calls += 1;
      if (schemaValid) stats.valid += 1;
      else stats.invalid += 1;
      const answer = await callTool(client, tool.name, input.value, {
        timeoutMs: run.callTimeoutMs ?? 20_000,
      });
      run.scanner?.scan(`${tool.name} answer`, answer);
      run.after?.();
      const outcome = classify(tool, answer);
      const context = `${tool.name} (${input.intent}, schema says ${schemaValid ? 'valid' : 'invalid'})`;
      if (outcome.kind === 'contract-violation') throw new Error(`${context}: ${outcome.problem}`);
      if (outcome.kind === 'success') {
        stats.successes += 1;
        // The contracts trim surrounding whitespace before checking (JSON Schema cannot say so): an input
        // that is valid once trimmed may be accepted.
        if (!schemaValid && !isValidAgainst(tool.inputJsonSchema, trimStrings(input.value))) {
          throw new Error(`${context}: accepted an input its published schema rejects`);
        }
        return;
      }
      stats.codes[outcome.code] = (stats.codes[outcome.code] ?? 0) + 1;
      if (outcome.internal) throw new Error(`${context}: internal error ${outcome.code}: ${outcome.message}`);
      if (!schemaValid && !outcome.validation) {
        throw new Error(
          `${context}: answered ${outcome.code} instead of a validation error: ${outcome.message}`,
        );
      }
      if (outcome.validation && outcome.message.trim().length < 8) {
        throw new Error(`${context}: validation message says nothing to fix: "${outcome.message}"`);
      }
    }),
    { seed: run.seed, numRuns: run.numRuns },
  );
  return stats;
}
