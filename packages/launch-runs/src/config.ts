import { resolveDataDir } from '@switchyard/server-kit';
import { z } from 'zod';
import type { LaunchPipelineOptions } from './pipeline/options.js';

const MIN_FILE_BYTES = 1024;
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const MAX_HASH_BYTES = 2 ** 40;

export const LaunchRunsConfigSchema = z.object({
  /** Where launch-runs.sqlite and the runs' folders live. */
  dataDir: z.string().min(1),
  /** How long an executor's lease on a run lasts without renewal (it renews at a third of it). */
  leaseMs: z.number().int().min(1000).max(3_600_000).default(30_000),
  /** OTLP/HTTP traces URL; spans are exported there as well as stored when set. */
  otlpTracesUrl: z.url().optional(),
  serviceName: z.string().min(1).default('switchyard-launch'),
  /** Largest source file W2/W3 read to parse it (the pipeline's default when unset). */
  maxFileBytes: z.number().int().min(MIN_FILE_BYTES).max(MAX_FILE_BYTES).optional(),
  /** Largest repository file W1 hashes for the inventory (the pipeline's default when unset). */
  maxHashBytes: z.number().int().min(0).max(MAX_HASH_BYTES).optional(),
});

export type LaunchRunsConfig = z.output<typeof LaunchRunsConfigSchema>;
export type LaunchRunsConfigInput = z.input<typeof LaunchRunsConfigSchema>;

/** The pipeline options the configuration sets (the file limits); the pipeline's defaults fill the rest. */
export function pipelineOptionsOf(config: LaunchRunsConfig): LaunchPipelineOptions {
  return {
    ...(config.maxFileBytes === undefined ? {} : { maxFileBytes: config.maxFileBytes }),
    ...(config.maxHashBytes === undefined ? {} : { maxHashBytes: config.maxHashBytes }),
  };
}

function integerVariable(
  env: NodeJS.ProcessEnv,
  name: string,
  min: number,
  max: number,
  unit = 'milliseconds',
): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max} (${unit}), got "${raw}"`);
  }
  return value;
}

function urlVariable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!z.url({ protocol: /^https?$/ }).safeParse(raw).success) {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw;
}

/**
 * The OTLP traces URL as OpenTelemetry's environment specification defines it: the signal-specific
 * variable as is, else the base endpoint with `/v1/traces` appended.
 */
function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const specific = urlVariable(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (specific !== undefined) return specific;
  const base = urlVariable(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  return base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Environment → config: SWITCHYARD_DATA_DIR (default: the platform's user data directory), LAUNCH_LEASE_MS,
 * OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_SERVICE_NAME, LAUNCH_MAX_FILE_BYTES,
 * LAUNCH_MAX_HASH_BYTES. Fails fast with the
 * name of the variable that is wrong.
 */
export function loadLaunchRunsConfig(env: NodeJS.ProcessEnv = process.env): LaunchRunsConfig {
  const leaseMs = integerVariable(env, 'LAUNCH_LEASE_MS', 1000, 3_600_000);
  const maxFileBytes = integerVariable(env, 'LAUNCH_MAX_FILE_BYTES', MIN_FILE_BYTES, MAX_FILE_BYTES, 'bytes');
  const maxHashBytes = integerVariable(env, 'LAUNCH_MAX_HASH_BYTES', 0, MAX_HASH_BYTES, 'bytes');
  const tracesUrl = otlpTracesUrl(env);
  const serviceName = env.OTEL_SERVICE_NAME?.trim();
  return LaunchRunsConfigSchema.parse({
    dataDir: resolveDataDir(env),
    ...(leaseMs === undefined ? {} : { leaseMs }),
    ...(tracesUrl === undefined ? {} : { otlpTracesUrl: tracesUrl }),
    ...(serviceName ? { serviceName } : {}),
    ...(maxFileBytes === undefined ? {} : { maxFileBytes }),
    ...(maxHashBytes === undefined ? {} : { maxHashBytes }),
  });
}
