import { isAbsolute } from 'node:path';
import type { Env } from '@switchyard/server-kit';
import { resolvePostgresSettings, type PostgresSettings } from '@switchyard/server-kit/runtime';
import { z } from 'zod';
import { DATABASE_URL_VARIABLE } from './db/open.js';
import type { LaunchPipelineOptions } from './pipeline/options.js';
import { EXPIRED_TASK_BATCH } from './store/task-rows.js';

const MIN_FILE_BYTES = 1024;
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const MAX_HASH_BYTES = 2 ** 40;
const MAX_ACTIVE_RUNS = 10_000;
const MIN_DRAFT_BYTES = 1024;
const MAX_DRAFT_BYTES = 16 * 1024 * 1024;
const MAX_DRAFT_ROUNDS = 20;
const MIN_DRAFT_TOKENS = 256;
const MAX_DRAFT_TOKENS = 1_000_000;
const MAX_EXPIRED_TASK_BATCH = 10_000;

/** The server's own secrets: never a PR token, whatever an operator lists (a start-up error). */
export const SERVER_SECRET_VARIABLES: readonly string[] = [
  'SWITCHYARD_TOKEN',
  'TFL_API_KEY',
  'DIGITRANSIT_SUBSCRIPTION_KEY',
];

const httpUrl = z.url({ protocol: /^https?$/ });
const tokenEnvName = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]*$/, 'is not an environment variable name (A-Z, 0-9, _)')
  .refine((name) => !SERVER_SECRET_VARIABLES.includes(name), {
    message: `is a secret of this server (${SERVER_SECRET_VARIABLES.join(', ')}) and can never be a PR token`,
  });

/**
 * What the operator configures (from the environment, `loadLaunchRunsConfig`). Where the data lives is not
 * part of it: launch-runs.sqlite and the runs' folders go in the server's data directory (SWITCHYARD_DATA_DIR,
 * `DomainRuntime.dataDir`), which every domain of one server shares.
 */
export const LaunchRunsConfigSchema = z.object({
  /** How long an executor's lease on a run lasts without renewal (it renews at a third of it). */
  leaseMs: z.number().int().min(1000).max(3_600_000).default(30_000),
  /**
   * On PostgreSQL, how often a replica looks for a run whose executor died (lease expired, never released)
   * and takes it over; at most one run per look.
   */
  takeoverMs: z.number().int().min(100).max(3_600_000).default(5_000),
  /** OTLP/HTTP traces URL; spans are exported there as well as stored when set. */
  otlpTracesUrl: z.url().optional(),
  serviceName: z.string().min(1).default('switchyard-launch'),
  /** Largest source file W2/W3 read to parse it (the pipeline's default when unset). */
  maxFileBytes: z.number().int().min(MIN_FILE_BYTES).max(MAX_FILE_BYTES).optional(),
  /** Largest repository file W1 hashes for the inventory (the pipeline's default when unset). */
  maxHashBytes: z.number().int().min(0).max(MAX_HASH_BYTES).optional(),
  /** Longest one git clone, checkout or push may take (the pipeline's default, 10 min, when unset). */
  gitTimeoutMs: z.number().int().min(1000).max(3_600_000).optional(),
  /** Bytes one cloned repository may take on disk (the pipeline's default, 4 GiB, when unset). */
  cloneMaxBytes: z.number().int().min(1_048_576).max(Number.MAX_SAFE_INTEGER).optional(),
  /**
   * Active runs one principal may have at once: unfinished ones, and DONE ones a lease holds
   * (store/active-runs.ts).
   */
  maxActiveRuns: z.number().int().min(1).max(MAX_ACTIVE_RUNS).default(20),
  /** Bytes of one page body a caller's model submits with launch_submit_draft. */
  maxDraftBytes: z
    .number()
    .int()
    .min(MIN_DRAFT_BYTES)
    .max(MAX_DRAFT_BYTES)
    .default(256 * 1024),
  /**
   * Drafts of one page the run's task asks the client's model for (sampling) before the page falls back to
   * its extractive draft: the first, then one revision after each refusal.
   */
  draftMaxRounds: z.number().int().min(1).max(MAX_DRAFT_ROUNDS).default(3),
  /** The `maxTokens` of each sampling request for a page's draft. */
  draftMaxTokens: z.number().int().min(MIN_DRAFT_TOKENS).max(MAX_DRAFT_TOKENS).default(8192),
  /**
   * Expired task rows (past created_ms + ttl_ms) each task opened deletes with it, at most; a task without a
   * ttl is kept.
   */
  expiredTaskBatch: z.number().int().min(1).max(MAX_EXPIRED_TASK_BATCH).default(EXPIRED_TASK_BATCH),

  // The operator's policy (src/policy/launch-policy.ts) and the site build's bounds; unset means the
  // documented default.
  /** Folders local repositories may be cloned from and pushed to; default: the server's data directory. */
  repoRoots: z.array(z.string().refine(isAbsolute, { message: 'is not an absolute path' })).optional(),
  /** Hosts network repositories may be on; default github.com, gitlab.com. */
  remoteHosts: z
    .array(z.string().regex(/^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/, 'is not a lower-case host name'))
    .optional(),
  /** GitHub API base URLs PRs may be opened through; default https://api.github.com. */
  githubApiUrls: z.array(httpUrl).optional(),
  /** Environment variables pr.github.token_env may name; none by default. */
  prTokenEnv: z.array(tokenEnvName).optional(),
  /** Executables a site's hugo build may start (exact names); none by default. */
  hugoExecAllow: z.array(z.string().regex(/^[A-Za-z0-9._+-]+$/, 'is not a bare command name')).optional(),
  /** URL prefixes a site's hugo build may fetch (resources.GetRemote); none by default. */
  hugoHttpUrls: z.array(httpUrl).optional(),
  /** Longest a site build may take (the pipeline's default, 120 s, when unset). */
  siteBuildTimeoutMs: z.number().int().min(1000).max(3_600_000).optional(),
  /** Bytes a site build may write before it is stopped (the pipeline's default, 256 MiB, when unset). */
  siteBuildMaxOutputBytes: z.number().int().min(1_048_576).max(Number.MAX_SAFE_INTEGER).optional(),
});

export type LaunchRunsConfig = z.output<typeof LaunchRunsConfigSchema> & {
  /** Runs on PostgreSQL (LAUNCH_DATABASE_URL, else SWITCHYARD_DATABASE_URL); absent: launch-runs.sqlite. */
  database?: PostgresSettings;
};
export type LaunchRunsConfigInput = z.input<typeof LaunchRunsConfigSchema>;

/** The pipeline options the configuration sets (file and git limits); the pipeline's defaults fill the rest. */
export function pipelineOptionsOf(config: LaunchRunsConfig): LaunchPipelineOptions {
  const { maxFileBytes, maxHashBytes, gitTimeoutMs, cloneMaxBytes } = config;
  return { maxFileBytes, maxHashBytes, gitTimeoutMs, cloneMaxBytes };
}

function integerVariable(
  env: Env,
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

/**
 * A comma-separated list, each entry checked by `item`; `none` is the empty list, unset (or empty) is
 * undefined (the default applies).
 */
function listVariable(env: Env, name: string, item: z.ZodType<string>): string[] | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'none') return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const parsed = item.safeParse(entry);
      if (!parsed.success) {
        throw new Error(`${name}: "${entry}" ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
      }
      return parsed.data;
    });
}

/** The operator's launch policy and site build bounds, from the variables that are set. */
function policyVariables(env: Env): Partial<LaunchRunsConfigInput> {
  const shape = LaunchRunsConfigSchema.shape;
  return {
    repoRoots: listVariable(env, 'LAUNCH_REPO_ROOTS', shape.repoRoots.unwrap().element),
    remoteHosts: listVariable(
      env,
      'LAUNCH_REMOTE_HOSTS',
      z
        .string()
        .transform((host) => host.toLowerCase())
        .pipe(shape.remoteHosts.unwrap().element),
    ),
    githubApiUrls: listVariable(env, 'LAUNCH_GITHUB_API_URLS', shape.githubApiUrls.unwrap().element),
    prTokenEnv: listVariable(env, 'LAUNCH_PR_TOKEN_ENV', shape.prTokenEnv.unwrap().element),
    hugoExecAllow: listVariable(env, 'LAUNCH_HUGO_EXEC_ALLOW', shape.hugoExecAllow.unwrap().element),
    hugoHttpUrls: listVariable(env, 'LAUNCH_HUGO_HTTP_URLS', shape.hugoHttpUrls.unwrap().element),
    siteBuildTimeoutMs: integerVariable(env, 'LAUNCH_SITE_BUILD_TIMEOUT_MS', 1000, 3_600_000),
    siteBuildMaxOutputBytes: integerVariable(
      env,
      'LAUNCH_SITE_BUILD_MAX_OUTPUT_BYTES',
      1_048_576,
      Number.MAX_SAFE_INTEGER,
      'bytes',
    ),
  };
}

/** The site build options the configuration sets (hugo's allowances, the build's bounds). */
export function siteBuildOptionsOf(config: LaunchRunsConfig): LaunchPipelineOptions {
  return {
    hugoSecurity: {
      ...(config.hugoExecAllow === undefined ? {} : { execAllow: config.hugoExecAllow }),
      ...(config.hugoHttpUrls === undefined ? {} : { httpUrls: config.hugoHttpUrls }),
    },
    siteBuildTimeoutMs: config.siteBuildTimeoutMs,
    siteBuildMaxOutputBytes: config.siteBuildMaxOutputBytes,
  };
}

function urlVariable(env: Env, name: string): string | undefined {
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
function otlpTracesUrl(env: Env): string | undefined {
  const specific = urlVariable(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (specific !== undefined) return specific;
  const base = urlVariable(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  return base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Environment → config: LAUNCH_LEASE_MS, LAUNCH_TAKEOVER_MS, OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
 * OTEL_SERVICE_NAME, LAUNCH_MAX_FILE_BYTES, LAUNCH_MAX_HASH_BYTES, LAUNCH_GIT_TIMEOUT_MS,
 * LAUNCH_CLONE_MAX_BYTES, LAUNCH_MAX_ACTIVE_RUNS, LAUNCH_MAX_DRAFT_BYTES, LAUNCH_DRAFT_MAX_ROUNDS,
 * LAUNCH_DRAFT_MAX_TOKENS, LAUNCH_EXPIRED_TASK_BATCH and the policy and site build settings
 * (LAUNCH_REPO_ROOTS, LAUNCH_REMOTE_HOSTS, LAUNCH_GITHUB_API_URLS, LAUNCH_PR_TOKEN_ENV, LAUNCH_HUGO_*,
 * LAUNCH_SITE_BUILD_*), LAUNCH_DATABASE_URL / SWITCHYARD_DATABASE_URL. Fails fast with the name of the
 * variable that is wrong. The domain's `config`.
 */
export function loadLaunchRunsConfig(env: Env = process.env): LaunchRunsConfig {
  const database = resolvePostgresSettings(env, DATABASE_URL_VARIABLE);
  const parsed = LaunchRunsConfigSchema.parse({
    leaseMs: integerVariable(env, 'LAUNCH_LEASE_MS', 1000, 3_600_000),
    takeoverMs: integerVariable(env, 'LAUNCH_TAKEOVER_MS', 100, 3_600_000),
    otlpTracesUrl: otlpTracesUrl(env),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || undefined,
    maxFileBytes: integerVariable(env, 'LAUNCH_MAX_FILE_BYTES', MIN_FILE_BYTES, MAX_FILE_BYTES, 'bytes'),
    maxHashBytes: integerVariable(env, 'LAUNCH_MAX_HASH_BYTES', 0, MAX_HASH_BYTES, 'bytes'),
    gitTimeoutMs: integerVariable(env, 'LAUNCH_GIT_TIMEOUT_MS', 1000, 3_600_000),
    cloneMaxBytes: integerVariable(
      env,
      'LAUNCH_CLONE_MAX_BYTES',
      1_048_576,
      Number.MAX_SAFE_INTEGER,
      'bytes',
    ),
    maxActiveRuns: integerVariable(env, 'LAUNCH_MAX_ACTIVE_RUNS', 1, MAX_ACTIVE_RUNS, 'runs'),
    maxDraftBytes: integerVariable(env, 'LAUNCH_MAX_DRAFT_BYTES', MIN_DRAFT_BYTES, MAX_DRAFT_BYTES, 'bytes'),
    draftMaxRounds: integerVariable(env, 'LAUNCH_DRAFT_MAX_ROUNDS', 1, MAX_DRAFT_ROUNDS, 'rounds'),
    draftMaxTokens: integerVariable(
      env,
      'LAUNCH_DRAFT_MAX_TOKENS',
      MIN_DRAFT_TOKENS,
      MAX_DRAFT_TOKENS,
      'tokens',
    ),
    expiredTaskBatch: integerVariable(env, 'LAUNCH_EXPIRED_TASK_BATCH', 1, MAX_EXPIRED_TASK_BATCH, 'tasks'),
    ...policyVariables(env),
  });
  return database === undefined ? parsed : { ...parsed, database };
}
