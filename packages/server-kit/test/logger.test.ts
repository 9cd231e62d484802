import { REDACTION_MARK, registerSecret, withCorrelationId } from '@switchyard/resilience';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, resolveLogFormat } from '../src/runtime/index.js';

function capture(level?: 'debug' | 'info' | 'warn' | 'error') {
  const lines: string[] = [];
  const logger = createLogger({
    ...(level === undefined ? {} : { level }),
    write: (line) => lines.push(line),
  });
  return { logger, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('createLogger', () => {
  it('writes one JSON object per line with time, level, message and fields', () => {
    const { logger, lines, entries } = capture('debug');
    logger.info('hello', { count: 2 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    expect(entries()[0]).toEqual({ ts: expect.any(String), level: 'info', msg: 'hello', count: 2 });
    expect(new Date(entries()[0]!.ts as string).toISOString()).toBe(entries()[0]!.ts);
  });

  it('stamps the correlation id inside withCorrelationId only', () => {
    const { logger, entries } = capture();
    withCorrelationId('corr-123', () => logger.info('inside'));
    logger.info('outside');
    expect(entries()[0]).toMatchObject({ msg: 'inside', correlationId: 'corr-123' });
    expect(entries()[1]).not.toHaveProperty('correlationId');
  });

  it("logs a failed database query by its query and cause, never its parameters (users' data)", () => {
    const { logger, lines, entries } = capture();
    const cause = new Error('invalid byte sequence for encoding "UTF8": 0x00');
    const failed = new DrizzleQueryError(
      'insert into "documents" ("content") values ($1)',
      ['my diary'],
      cause,
    );
    logger.error('tool call failed', { cause: failed });
    expect(lines[0]).not.toContain('my diary');
    expect(entries()[0]?.cause).toEqual({
      name: 'Error',
      message: 'Failed query: insert into "documents" ("content") values ($1)',
      cause: { name: 'Error', message: 'invalid byte sequence for encoding "UTF8": 0x00' },
    });
  });

  it('redacts registered secrets anywhere in the line, plain or URL-encoded', () => {
    const secret = 'sk-live/4242+secret';
    registerSecret(secret);
    const { logger, lines } = capture();
    logger.warn(`calling with ${secret}`, {
      url: `https://api.example/x?key=${encodeURIComponent(secret)}`,
      error: new Error(`bad key ${secret}`),
    });
    expect(lines[0]).not.toContain(secret);
    expect(lines[0]).not.toContain(encodeURIComponent(secret));
    expect(lines[0]!.split(REDACTION_MARK).length - 1).toBe(3);
    expect(JSON.parse(lines[0]!)).toMatchObject({ error: { name: 'Error' } });
  });

  it('also redacts credentials it was never told about (query keys, token fields, bearer headers)', () => {
    const { logger, lines } = capture();
    logger.info('upstream call', {
      url: 'https://api.tfl.gov.uk/Journey?app_key=unregistered123&from=a',
      headers: { authorization: 'Bearer abcdefghijklmnop' },
      token: 'raw-token-value',
    });
    expect(lines[0]).not.toContain('unregistered123');
    expect(lines[0]).not.toContain('abcdefghijklmnop');
    expect(lines[0]).not.toContain('raw-token-value');
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'upstream call' });
  });

  it('filters by level (option, then SWITCHYARD_LOG_LEVEL, default info)', () => {
    const warnOnly = capture('warn');
    warnOnly.logger.info('dropped');
    warnOnly.logger.error('kept');
    expect(warnOnly.entries().map((entry) => entry.msg)).toEqual(['kept']);

    vi.stubEnv('SWITCHYARD_LOG_LEVEL', 'DEBUG');
    const fromEnv = capture();
    fromEnv.logger.debug('debug kept');
    expect(fromEnv.lines).toHaveLength(1);

    vi.stubEnv('SWITCHYARD_LOG_LEVEL', ' Warn ');
    const padded = capture();
    padded.logger.info('dropped');
    padded.logger.warn('kept');
    expect(padded.entries().map((entry) => entry.msg)).toEqual(['kept']);

    // A logger made before the server checks the variable (the bins make theirs first) does not throw.
    vi.stubEnv('SWITCHYARD_LOG_LEVEL', 'verbose');
    const fallback = capture();
    fallback.logger.debug('dropped');
    fallback.logger.info('kept');
    expect(fallback.entries().map((entry) => entry.msg)).toEqual(['kept']);
  });

  it('child loggers add their fields and keep the level', () => {
    const { logger, entries } = capture('warn');
    const child = logger.child({ domain: 'transit' }).child({ tool: 'plan_trip' });
    child.info('dropped');
    child.warn('kept');
    expect(entries()).toEqual([
      { ts: expect.any(String), level: 'warn', msg: 'kept', domain: 'transit', tool: 'plan_trip' },
    ]);
  });

  it('survives fields that cannot be serialized', () => {
    const { logger, entries } = capture();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    logger.info('odd', { circular });
    expect(entries()[0]).toMatchObject({ msg: 'odd', note: 'fields were not serializable' });
  });

  it('writes to stderr by default, never stdout', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, 'write');
    createLogger({ level: 'info' }).info('to stderr');
    expect(stderr).toHaveBeenCalledWith(expect.stringContaining('"msg":"to stderr"'));
    expect(stdout).not.toHaveBeenCalledWith(expect.stringContaining('to stderr'));
  });
});

describe('the log format', () => {
  it('writes text a person reads: time, level, message and fields, redacted like JSON lines', () => {
    const secret = 'text-format-secret-7c1f';
    registerSecret(secret);
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', format: 'text', write: (line) => lines.push(line) });
    logger.child({ domain: 'transit' }).info('listening', {
      url: 'http://127.0.0.1:3333/mcp',
      note: `has spaces ${secret}`,
      count: 2,
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} info {2}listening domain=transit url=http:\/\/127\.0\.0\.1:3333\/mcp note="has spaces .+" count=2$/,
    );
    expect(lines[0]).not.toContain(secret);
    expect(lines[0]).toContain(REDACTION_MARK);
  });

  it('is text on a terminal and JSON lines elsewhere, unless SWITCHYARD_LOG_FORMAT says', () => {
    expect(resolveLogFormat({}, true)).toBe('text');
    expect(resolveLogFormat({}, false)).toBe('json');
    expect(resolveLogFormat({ SWITCHYARD_LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(resolveLogFormat({ SWITCHYARD_LOG_FORMAT: ' Text ' }, false)).toBe('text');
    expect(() => resolveLogFormat({ SWITCHYARD_LOG_FORMAT: 'yaml' }, true)).toThrow(
      'SWITCHYARD_LOG_FORMAT must be one of json, text, got "yaml"',
    );
  });

  it('writes JSON to a sink of the caller, whatever the environment says about stderr', () => {
    vi.stubEnv('SWITCHYARD_LOG_FORMAT', 'text');
    const { logger, entries } = capture();
    logger.info('to the sink');
    expect(entries()[0]).toMatchObject({ msg: 'to the sink' });
  });
});
