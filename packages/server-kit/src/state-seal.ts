import {
  createRequestStateCodec,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { RequestStateSettings } from './request-state.js';

/** What a sealed request state holds: the handler's own state and what it was minted for. */
interface Sealed {
  /** The request it belongs to (`tools/call launch_start_run`): state minted for one is refused by another. */
  for: string;
  state: unknown;
}

/** The spec's answer to state that fails verification (the SDK's own words, so both paths answer alike). */
function invalidState(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', {
    reason: 'invalid_request_state',
  });
}

/**
 * Seals a handler's request state with the SDK's HMAC codec (signed, not encrypted; bound to the caller's
 * principal, so one caller's state is refused in another's request) and opens it again on the next round.
 * The SDK runs `verify` before any handler: a forged, foreign, expired or oversized state never reaches one.
 */
export class StateSeal {
  readonly #codec: RequestStateCodec;
  readonly #maxBytes: number;

  constructor(settings: RequestStateSettings, principalOf: (ctx: ServerContext) => string) {
    this.#codec = createRequestStateCodec({
      key: settings.key,
      ttlSeconds: settings.ttlSeconds,
      bind: principalOf,
    });
    this.#maxBytes = settings.maxBytes;
  }

  /** The SDK's `requestState.verify` hook: the sealed value, or a throw (answered -32602, reason logged). */
  readonly verify = async (state: string, ctx: ServerContext): Promise<unknown> => {
    if (Buffer.byteLength(state, 'utf8') > this.#maxBytes) {
      throw new Error(`requestState is over SWITCHYARD_MAX_REQUEST_STATE_BYTES (${this.#maxBytes})`);
    }
    return this.#codec.verify(state, ctx);
  };

  /** `state` sealed for the request `target`; a state that seals larger than the limit is a defect, refused. */
  async seal(target: string, state: unknown, ctx: ServerContext): Promise<string> {
    const sealed = await this.#codec.mint({ for: target, state } satisfies Sealed, ctx);
    const bytes = Buffer.byteLength(sealed, 'utf8');
    if (bytes > this.#maxBytes) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `The handler's request state seals to ${bytes} bytes, over SWITCHYARD_MAX_REQUEST_STATE_BYTES (${this.#maxBytes})`,
      );
    }
    return sealed;
  }

  /** The handler's state back for `target` (verified by the hook already), or undefined on a first round. */
  open(target: string, ctx: ServerContext): unknown {
    const opened = ctx.mcpReq.requestState<Sealed>();
    if (opened === undefined) return undefined;
    if (typeof opened !== 'object' || opened === null || opened.for !== target) throw invalidState();
    return opened.state;
  }
}
