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

/** `json`: one JSON object a line (for log collectors); `text`: one line a person reads on a terminal. */
export type LogFormat = 'json' | 'text';

export const LOG_FORMATS: readonly LogFormat[] = ['json', 'text'];

export interface LoggerOptions {
  level?: LogLevel;
  /**
   * Default, on stderr: SWITCHYARD_LOG_FORMAT, else `text` when stderr is a terminal and `json` when it is not;
   * with `write`: `json`.
   */
  format?: LogFormat;
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

function logFormatNamed(raw: string | undefined): LogFormat | undefined {
  const word = raw?.trim().toLowerCase() ?? '';
  return (LOG_FORMATS as readonly string[]).includes(word) ? (word as LogFormat) : undefined;
}

/**
 * SWITCHYARD_LOG_FORMAT (`json` or `text`, any case), checked before a server starts like SWITCHYARD_LOG_LEVEL.
 * Unset: text on a terminal (`terminal`: stderr is one), JSON lines otherwise (a client's log, a collector).
 */
export function resolveLogFormat(
  env: Readonly<Record<string, string | undefined>>,
  terminal = process.stderr.isTTY === true,
): LogFormat {
  const raw = env.SWITCHYARD_LOG_FORMAT;
  if (raw === undefined || raw.trim() === '') return terminal ? 'text' : 'json';
  const format = logFormatNamed(raw);
  if (format === undefined) {
    throw new Error(`SWITCHYARD_LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}, got "${raw}"`);
  }
  return format;
}

/** Tolerant, like levelFromEnv: a wrong value means the terminal's default. */
function formatFromEnv(): LogFormat {
  const terminal = process.stderr.isTTY === true;
  return logFormatNamed(process.env.SWITCHYARD_LOG_FORMAT) ?? (terminal ? 'text' : 'json');
}

/** A field's value on a text line: a plain word as it is, anything else as JSON. */
function textValue(value: unknown): string {
  if (typeof value === 'string' && /^[^\s"=]+$/.test(value)) return value;
  return JSON.stringify(value) ?? String(value);
}

/** `08:41:07.123 info  listening transport=http url=http://127.0.0.1:3333/mcp` */
function textLine(entry: Record<string, unknown>): string {
  const { ts, level, msg, ...fields } = entry;
  const time = typeof ts === 'string' ? ts.slice(11, 23) : '';
  const rest = Object.entries(fields).map(([key, value]) => ` ${key}=${textValue(value)}`);
  return `${time} ${String(level).padEnd(5)} ${String(msg)}${rest.join('')}`;
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
 * Structured lines on stderr (JSON, or text for a person on a terminal), each stamped with the current
 * correlation id. Every line passes through `redactText`: registered secrets, credential query parameters and
 * JSON fields, bearer tokens and URL passwords never reach a log.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = LEVEL_RANK[options.level ?? levelFromEnv()];
  // The terminal's default is about stderr: lines given to a `write` of the caller's are JSON unless asked.
  const format = options.format ?? (options.write === undefined ? formatFromEnv() : 'json');
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
      line = format === 'text' ? textLine(entry) : JSON.stringify(entry);
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
      createLogger({
        ...options,
        level: options.level ?? levelFromEnv(),
        format,
        fields: { ...base, ...fields },
      }),
  };
}
