/**
 * Every resource a caller can push against has a bound, and every bound is a setting: an option of
 * `runServer` (set in code, it wins) or its environment variable, else the default below.
 */
export type Env = Readonly<Record<string, string | undefined>>;

interface LimitSetting {
  /** How `runServer` spells the option (used in messages). */
  option: string;
  variable: string;
  /** Smallest accepted value. */
  min: number;
  /** Largest accepted value, where one exists. */
  max?: number;
  /** What 0 means, where 0 is accepted. */
  zeroMeans?: string;
  /** What the number counts, for messages. */
  unit:
    | 'bytes'
    | 'mebibytes'
    | 'milliseconds'
    | 'seconds'
    | 'levels'
    | 'connections'
    | 'messages'
    | 'rounds'
    | 'task ids'
    | 'listens'
    | 'percent';
  /** Absent where the default depends on the modules (the message sizes). */
  default?: number;
}

/** How deep tool arguments may nest (objects and arrays, the arguments object counting as level 1). */
export const DEFAULT_MAX_ARGUMENT_DEPTH = 64;
/** Requests and stdio messages: 1 MiB, raised to the largest `maxRequestBytes` a module declares. */
export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;
/** Open connections, whatever state they are in (Node's own default is unlimited). */
export const DEFAULT_MAX_CONNECTIONS = 512;
/** A connection must finish sending its headers within this (Node's default: 60 s). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** ... and its whole request, body included, within this (Node's default: 300 s). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** An idle kept-alive connection is closed after this. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
/**
 * The most messages one HTTP POST may carry in a JSON-RPC batch (2025-era clients). The MCP SDK refuses a
 * batch of more than 100 itself, so 100 is also the most this setting can allow.
 */
export const DEFAULT_HTTP_MAX_BATCH = 100;

/**
 * The most bytes one answer may take on the wire, its payload and text mirror serialized (a 2025-era HTTP batch:
 * all its answers together). A tool's list is cut to it with a way to get the rest.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;
/** Below this the fixed parts of some answers (a run status, a plan's first journey) would not fit. */
export const MIN_MAX_ANSWER_BYTES = 64 * 1024;

/**
 * The largest sealed request state (multi round-trip requests) the server mints or accepts: a client cannot make
 * it verify (HMAC) more than this per request, and a handler's state that would pass it is a defect, refused.
 */
export const DEFAULT_MAX_REQUEST_STATE_BYTES = 16 * 1024;
/** How long a sealed request state is accepted after it was minted: the client's round trip, a person included. */
export const DEFAULT_REQUEST_STATE_TTL_S = 600;

/**
 * 2025-11-25 over a connection (stdio): the server asks the client itself for a handler's questions, at most this
 * many rounds for one request (the client's answers each time); the request then fails saying so.
 */
export const DEFAULT_INPUT_MAX_ROUNDS = 8;
/** ...and waits this long for each round's answers: a person may be typing them. */
export const DEFAULT_INPUT_ROUND_TIMEOUT_MS = 600_000;

/** How long a task (the Tasks extension) may be kept after it was created: a day. */
export const DEFAULT_TASK_TTL_MS = 86_400_000;
/** How often a client should poll a task (`pollIntervalMs`); a faster `tasks/get` waits the rest. */
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1_000;
/** A `when-slow` tool answers with a task when its work is not done within this. */
export const DEFAULT_TASK_AFTER_MS = 2_000;
/** How many task ids one listen for task notifications is acknowledged for at most (the rest are polled). */
export const DEFAULT_TASK_LISTEN_MAX_IDS = 32;
/** How many listens for task notifications one process serves at once. */
export const DEFAULT_TASK_LISTENS_MAX = 256;
/** How many (principal, task) pairs the poll pace remembers per process, least recently polled dropped first. */
export const TASK_POLL_PACE_ENTRIES = 10_000;

/** Accepted difference between our clock and the authorization server's, for `exp`, `nbf` and `iat`. */
export const DEFAULT_OAUTH_CLOCK_SKEW_S = 60;
/** One fetch of an authorization server's metadata, JWKS or introspection answer. */
export const DEFAULT_OAUTH_FETCH_TIMEOUT_MS = 5_000;
/** A JWKS is fetched again after this even when every token's key is in it (keys that were removed go). */
export const DEFAULT_OAUTH_JWKS_CACHE_MAX_AGE_MS = 10 * 60_000;
/** A token signed by an unknown key refetches the JWKS (rotation), at most once per this. */
export const DEFAULT_OAUTH_JWKS_COOLDOWN_MS = 30_000;
/**
 * After an issuer's metadata could not be read, its tokens are answered 503 without another fetch for this
 * long: while an issuer is down, forged tokens cannot make this server fetch its metadata on every request.
 */
export const DEFAULT_OAUTH_DISCOVERY_RETRY_MS = 10_000;
/** The largest metadata document, JWKS or introspection answer read from an authorization server. */
export const DEFAULT_OAUTH_MAX_RESPONSE_BYTES = 256 * 1024;

/**
 * V8's young generation (new space), where each call's short-lived objects go. Left alone, V8 doubles it whenever
 * enough objects have survived since it last grew, so under steady calls a server's grows to V8's most (64 MiB and
 * more on a machine with much memory) and keeps it; 8 MiB costs no measurable CPU per call.
 */
export const DEFAULT_MAX_YOUNG_GENERATION_MB = 8;

/**
 * How far V8 lets its old generation grow past what survived the last full collection before the next one, in
 * percent. Left alone, V8 picks a factor of 1.1 to 4 from how fast it collects, and a server whose calls leave
 * little behind grows to several times its live data between collections (switchyard-transit after 1,000 mixed
 * calls: old space 31 MiB and 3.6 MiB of dead upstream bodies' Buffers, against 21 MiB and 1 MiB at 20%). The
 * price is more full collections: 8 instead of 2 in those calls, about 50 ms of pauses in all (0.05 ms a call,
 * within the noise of the CPU per call).
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 20;

export const LIMITS = {
  maxArgumentDepth: {
    option: 'maxArgumentDepth',
    variable: 'SWITCHYARD_MAX_ARGUMENT_DEPTH',
    min: 1,
    unit: 'levels',
    default: DEFAULT_MAX_ARGUMENT_DEPTH,
  },
  maxYoungGenerationMb: {
    option: 'maxYoungGenerationMb',
    variable: 'SWITCHYARD_MAX_YOUNG_GENERATION_MB',
    min: 0,
    zeroMeans: "V8's own growth",
    unit: 'mebibytes',
    default: DEFAULT_MAX_YOUNG_GENERATION_MB,
  },
  heapGrowingPercent: {
    option: 'heapGrowingPercent',
    variable: 'SWITCHYARD_HEAP_GROWING_PERCENT',
    min: 0,
    zeroMeans: "V8's own growth",
    unit: 'percent',
    default: DEFAULT_HEAP_GROWING_PERCENT,
  },
  maxAnswerBytes: {
    option: 'maxAnswerBytes',
    variable: 'SWITCHYARD_MAX_ANSWER_BYTES',
    min: MIN_MAX_ANSWER_BYTES,
    unit: 'bytes',
    default: DEFAULT_MAX_ANSWER_BYTES,
  },
  maxRequestStateBytes: {
    option: 'requestState.maxBytes',
    variable: 'SWITCHYARD_MAX_REQUEST_STATE_BYTES',
    min: 1024,
    unit: 'bytes',
    default: DEFAULT_MAX_REQUEST_STATE_BYTES,
  },
  requestStateTtlS: {
    option: 'requestState.ttlSeconds',
    variable: 'SWITCHYARD_REQUEST_STATE_TTL_S',
    min: 1,
    max: 86_400,
    unit: 'seconds',
    default: DEFAULT_REQUEST_STATE_TTL_S,
  },
  inputMaxRounds: {
    option: 'inputRequired.maxRounds',
    variable: 'SWITCHYARD_INPUT_MAX_ROUNDS',
    min: 1,
    max: 100,
    unit: 'rounds',
    default: DEFAULT_INPUT_MAX_ROUNDS,
  },
  inputRoundTimeoutMs: {
    option: 'inputRequired.roundTimeoutMs',
    variable: 'SWITCHYARD_INPUT_ROUND_TIMEOUT_MS',
    min: 1_000,
    unit: 'milliseconds',
    default: DEFAULT_INPUT_ROUND_TIMEOUT_MS,
  },
  taskTtlMs: {
    option: 'tasks.ttlMs',
    variable: 'SWITCHYARD_TASK_TTL_MS',
    min: 1,
    unit: 'milliseconds',
    default: DEFAULT_TASK_TTL_MS,
  },
  taskPollIntervalMs: {
    option: 'tasks.pollIntervalMs',
    variable: 'SWITCHYARD_TASK_POLL_INTERVAL_MS',
    min: 1,
    unit: 'milliseconds',
    default: DEFAULT_TASK_POLL_INTERVAL_MS,
  },
  taskListenMaxIds: {
    option: 'tasks.listenMaxIds',
    variable: 'SWITCHYARD_TASK_LISTEN_MAX_IDS',
    min: 1,
    unit: 'task ids',
    default: DEFAULT_TASK_LISTEN_MAX_IDS,
  },
  taskListensMax: {
    option: 'tasks.listensMax',
    variable: 'SWITCHYARD_TASK_LISTENS_MAX',
    min: 1,
    unit: 'listens',
    default: DEFAULT_TASK_LISTENS_MAX,
  },
  taskAfterMs: {
    option: 'tasks.afterMs',
    variable: 'SWITCHYARD_TASK_AFTER_MS',
    min: 0,
    zeroMeans: 'a when-slow tool always answers with a task',
    unit: 'milliseconds',
    default: DEFAULT_TASK_AFTER_MS,
  },
  stdioMaxMessageBytes: {
    option: 'stdio.maxMessageBytes',
    variable: 'SWITCHYARD_STDIO_MAX_MESSAGE_BYTES',
    min: 1,
    unit: 'bytes',
  },
  httpMaxBodyBytes: {
    option: 'http.maxBodyBytes',
    variable: 'SWITCHYARD_HTTP_MAX_BODY_BYTES',
    min: 1,
    unit: 'bytes',
  },
  httpMaxBatch: {
    option: 'http.maxBatch',
    variable: 'SWITCHYARD_HTTP_MAX_BATCH',
    min: 1,
    max: DEFAULT_HTTP_MAX_BATCH,
    unit: 'messages',
    default: DEFAULT_HTTP_MAX_BATCH,
  },
  httpMaxConnections: {
    option: 'http.maxConnections',
    variable: 'SWITCHYARD_HTTP_MAX_CONNECTIONS',
    min: 1,
    unit: 'connections',
    default: DEFAULT_MAX_CONNECTIONS,
  },
  httpHeadersTimeoutMs: {
    option: 'http.headersTimeoutMs',
    variable: 'SWITCHYARD_HTTP_HEADERS_TIMEOUT_MS',
    min: 1,
    unit: 'milliseconds',
    default: DEFAULT_HEADERS_TIMEOUT_MS,
  },
  httpRequestTimeoutMs: {
    option: 'http.requestTimeoutMs',
    variable: 'SWITCHYARD_HTTP_REQUEST_TIMEOUT_MS',
    min: 1,
    unit: 'milliseconds',
    default: DEFAULT_REQUEST_TIMEOUT_MS,
  },
  httpKeepAliveTimeoutMs: {
    option: 'http.keepAliveTimeoutMs',
    variable: 'SWITCHYARD_HTTP_KEEP_ALIVE_TIMEOUT_MS',
    min: 1,
    unit: 'milliseconds',
    default: DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  },
  oauthClockSkewS: {
    option: 'http.oauth.clockSkewS',
    variable: 'SWITCHYARD_OAUTH_CLOCK_SKEW_S',
    min: 0,
    zeroMeans: 'no tolerance',
    unit: 'seconds',
    default: DEFAULT_OAUTH_CLOCK_SKEW_S,
  },
  oauthFetchTimeoutMs: {
    option: 'http.oauth.fetchTimeoutMs',
    variable: 'SWITCHYARD_OAUTH_FETCH_TIMEOUT_MS',
    min: 1,
    unit: 'milliseconds',
    default: DEFAULT_OAUTH_FETCH_TIMEOUT_MS,
  },
  oauthJwksCacheMaxAgeMs: {
    option: 'http.oauth.jwksCacheMaxAgeMs',
    variable: 'SWITCHYARD_OAUTH_JWKS_CACHE_MAX_AGE_MS',
    min: 1,
    unit: 'milliseconds',
    default: DEFAULT_OAUTH_JWKS_CACHE_MAX_AGE_MS,
  },
  oauthJwksCooldownMs: {
    option: 'http.oauth.jwksCooldownMs',
    variable: 'SWITCHYARD_OAUTH_JWKS_COOLDOWN_MS',
    min: 0,
    zeroMeans: 'refetch on every unknown key',
    unit: 'milliseconds',
    default: DEFAULT_OAUTH_JWKS_COOLDOWN_MS,
  },
  oauthDiscoveryRetryMs: {
    option: 'http.oauth.discoveryRetryMs',
    variable: 'SWITCHYARD_OAUTH_DISCOVERY_RETRY_MS',
    min: 0,
    zeroMeans: 'every token tries again',
    unit: 'milliseconds',
    default: DEFAULT_OAUTH_DISCOVERY_RETRY_MS,
  },
  oauthMaxResponseBytes: {
    option: 'http.oauth.maxResponseBytes',
    variable: 'SWITCHYARD_OAUTH_MAX_RESPONSE_BYTES',
    min: 1,
    unit: 'bytes',
    default: DEFAULT_OAUTH_MAX_RESPONSE_BYTES,
  },
} as const satisfies Record<string, LimitSetting>;

export type LimitName = keyof typeof LIMITS;

function describeRange(setting: LimitSetting): string {
  const zero = setting.zeroMeans === undefined ? '' : ` (0 = ${setting.zeroMeans})`;
  const range = setting.max === undefined ? `>= ${setting.min}` : `from ${setting.min} to ${setting.max}`;
  return `a whole number of ${setting.unit} ${range}${zero}`;
}

function inRange(value: number, setting: LimitSetting): boolean {
  return value >= setting.min && (setting.max === undefined || value <= setting.max);
}

/**
 * The value of one bound: the option when given in code, else its environment variable, else `fallback`
 * (the table's default unless given). A value out of range fails the start naming the option or variable.
 */
export function resolveLimit(
  name: LimitName,
  given: number | undefined,
  env: Env,
  fallback?: number,
): number {
  const setting: LimitSetting = LIMITS[name];
  if (given !== undefined) {
    if (!Number.isInteger(given) || !inRange(given, setting)) {
      throw new Error(`runServer: ${setting.option} must be ${describeRange(setting)}, got ${String(given)}`);
    }
    return given;
  }
  const raw = env[setting.variable]?.trim();
  if (raw === undefined || raw === '') {
    const value = fallback ?? setting.default;
    if (value === undefined) throw new Error(`${setting.option} has no default: pass one`);
    return value;
  }
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || !inRange(value, setting)) {
    throw new Error(`runServer: ${setting.variable} must be ${describeRange(setting)}, got "${raw}"`);
  }
  return value;
}
