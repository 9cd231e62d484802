import { currentCorrelationId, redactText } from '@switchyard/resilience/context';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger that adds `fields` to every line (e.g. `{ domain: 'transit' }`). */
  child(fields: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; stderr by default, since stdout is the MCP channel on stdio. */
  write?: (line: string) => void;
  fields?: Record<string, unknown>;
}

export const LOG_LEVELS = Object.keys(LEVEL_RANK) as readonly LogLevel[];

/** The level `raw` names, in any case and with spaces around; undefined for anything else. */
export function logLevelNamed(raw: string | undefined): LogLevel | undefined {
  const word = raw?.trim().toLowerCase() ?? '';
  return Object.hasOwn(LEVEL_RANK, word) ? (word as LogLevel) : undefined;
}

/**
 * SWITCHYARD_LOG_LEVEL (any case), checked before a server starts or `switchyard migrate` runs, like every
 * other SWITCHYARD_* variable: a level it does not know stops them. Unset: info.
 */
export function resolveLogLevel(env: Readonly<Record<string, string | undefined>>): LogLevel {
  const raw = env.SWITCHYARD_LOG_LEVEL;
  if (raw === undefined || raw.trim() === '') return 'info';
  const level = logLevelNamed(raw);
  if (level === undefined) {
    throw new Error(`SWITCHYARD_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return level;
}

/** Tolerant: a logger can be made before the server checks SWITCHYARD_LOG_LEVEL, and a wrong value means info. */
function levelFromEnv(): LogLevel {
  return logLevelNamed(process.env.SWITCHYARD_LOG_LEVEL) ?? 'info';
}

/**
 * An error as a log field: its name and message. A failed database query (drizzle's DrizzleQueryError, whose
 * message lists the query's parameters) is logged by its query and its cause: the parameters are users' data.
 */
function errorFields(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const { query, params } = value as { query?: unknown; params?: unknown };
  if (typeof query === 'string' && Array.isArray(params)) {
    return { name: value.name, message: `Failed query: ${query}`, cause: errorFields(value.cause) };
  }
  return { name: value.name, message: value.message };
}

/**
 * Structured JSON lines on stderr, each stamped with the current correlation id. Every line passes through
 * `redactText`: registered secrets, credential query parameters and JSON fields, bearer tokens and URL
 * passwords never reach a log.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = LEVEL_RANK[options.level ?? levelFromEnv()];
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const base = options.fields ?? {};
  const log = (level: LogLevel, message: string, fields?: Record<string, unknown>): void => {
    if (LEVEL_RANK[level] < threshold) return;
    const correlationId = currentCorrelationId();
    const entry: Record<string, unknown> = {
      ts: new Date().toISOString(),
      level,
      msg: message,
      ...base,
      ...(correlationId === undefined ? {} : { correlationId }),
    };
    for (const [key, value] of Object.entries(fields ?? {})) entry[key] = errorFields(value);
    let line: string;
    try {
      line = JSON.stringify(entry);
    } catch {
      line = JSON.stringify({ ts: entry.ts, level, msg: message, note: 'fields were not serializable' });
    }
    write(redactText(line));
  };
  return {
    debug: (m, f) => log('debug', m, f),
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
    child: (fields) =>
      createLogger({ ...options, level: options.level ?? levelFromEnv(), fields: { ...base, ...fields } }),
  };
}
