// What an upstream answered, its body already read within the limit. Not a web Response: the first Response,
// Headers or Request a process builds loads Node's fetch implementation, about 17 MiB of a server's memory
// (measured), for a body that is already in hand. The fetch adapter (fetch-adapter.ts) makes a Response of an
// answer only for a library that needs one (ky).
import type * as Http from 'node:http';

/** Response headers, read by name without regard to case, as the web Headers' `get`. */
export interface AnswerHeaders {
  get(name: string): string | null;
}

/** What readers of an upstream use of its answer; a web Response has this shape too. */
export interface UpstreamAnswer {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: AnswerHeaders;
  /** The body as UTF-8 text (a byte order mark dropped); rejects with why the body could not be read. */
  text(): Promise<string>;
  /**
   * The body's bytes; rejects with why the body could not be read. Optional because TypeScript's Response type
   * does not declare it yet (Node's Response has it).
   */
  bytes?(): Promise<Uint8Array>;
}

/** Node's parsed response headers (names in lower case) behind `get`; repeated fields joined as fetch joins them. */
export class RawHeaders implements AnswerHeaders {
  constructor(private readonly raw: Http.IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** Every field as name-value pairs (a repeated field once per value). */
  pairs(): [string, string][] {
    return Object.entries(this.raw).flatMap(([name, value]): [string, string][] =>
      value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((item) => [name, item]),
    );
  }
}

/** A read body: its bytes (null for a status without a body), or why reading stopped. */
export type AnswerBody = { bytes: Buffer | null } | { failure: unknown };

const utf8 = new TextDecoder();
const EMPTY = new Uint8Array(0);

/** An answer whose body was read (or whose reading failed). */
export class ReadAnswer implements UpstreamAnswer {
  constructor(
    readonly status: number,
    readonly headers: RawHeaders,
    readonly body: AnswerBody,
  ) {}

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  text(): Promise<string> {
    return this.bytes().then((bytes) => utf8.decode(bytes));
  }

  bytes(): Promise<Uint8Array> {
    const { body } = this;
    if ('failure' in body) return Promise.reject(body.failure);
    return Promise.resolve(body.bytes ?? EMPTY);
  }
}
