import { randomBytes } from 'node:crypto';
import { registerSecret } from '@switchyard/resilience/context';
import { resolveLimit, type Env } from './limits.js';

/** The operator key that signs request state; without it each process draws its own. */
export const REQUEST_STATE_KEY_VARIABLE = 'SWITCHYARD_REQUEST_STATE_KEY';
/** HMAC-SHA256 wants at least its output size of key (the SDK's codec refuses less). */
export const MIN_REQUEST_STATE_KEY_BYTES = 32;

/** How request state is sealed: `runServer`'s `requestState` option, else the environment. */
export interface RequestStateOptions {
  /** SWITCHYARD_REQUEST_STATE_KEY: at least 32 bytes. Default: 32 random bytes drawn by this process. */
  key?: string;
  /** SWITCHYARD_MAX_REQUEST_STATE_BYTES: the largest sealed state minted or accepted (default 16 KiB). */
  maxBytes?: number;
  /** SWITCHYARD_REQUEST_STATE_TTL_S: how long a sealed state is accepted after it was minted (default 600). */
  ttlSeconds?: number;
}

export interface RequestStateSettings {
  key: Uint8Array;
  maxBytes: number;
  ttlSeconds: number;
}

/** 2025-11-25 over a connection, where the server asks the client itself: `runServer`'s `inputRequired`. */
export interface InputRoundOptions {
  /** SWITCHYARD_INPUT_MAX_ROUNDS: rounds of questions for one request at most (default 8). */
  maxRounds?: number;
  /** SWITCHYARD_INPUT_ROUND_TIMEOUT_MS: how long one round's answers may take (default 600 000). */
  roundTimeoutMs?: number;
}

export function resolveInputRounds(options: InputRoundOptions, env: Env): Required<InputRoundOptions> {
  return {
    maxRounds: resolveLimit('inputMaxRounds', options.maxRounds, env),
    roundTimeoutMs: resolveLimit('inputRoundTimeoutMs', options.roundTimeoutMs, env),
  };
}

/**
 * The request-state settings, checked at start. A key set by the operator is registered as a secret (redacted
 * from every log line); a too-short one fails the start naming the variable and its length, never its value.
 */
export function resolveRequestStateSettings(options: RequestStateOptions, env: Env): RequestStateSettings {
  const raw = options.key ?? env[REQUEST_STATE_KEY_VARIABLE];
  let key: Uint8Array;
  if (raw === undefined || raw === '') {
    key = randomBytes(MIN_REQUEST_STATE_KEY_BYTES);
  } else {
    const bytes = Buffer.byteLength(raw, 'utf8');
    const name = options.key === undefined ? REQUEST_STATE_KEY_VARIABLE : 'requestState.key';
    if (bytes < MIN_REQUEST_STATE_KEY_BYTES) {
      throw new Error(
        `runServer: ${name} must be at least ${MIN_REQUEST_STATE_KEY_BYTES} bytes (a random string, e.g. ` +
          `\`openssl rand -base64 48\`), got ${bytes}`,
      );
    }
    registerSecret(raw);
    key = Buffer.from(raw, 'utf8');
  }
  return {
    key,
    maxBytes: resolveLimit('maxRequestStateBytes', options.maxBytes, env),
    ttlSeconds: resolveLimit('requestStateTtlS', options.ttlSeconds, env),
  };
}
