// A TCP proxy on loopback between a server under test and PostgreSQL, which breaks the connections on
// command: all of them now, the next time the server answers (mid-query), when the client sends a given
// statement (mid-transaction, mid-COMMIT), or by forwarding nothing at all (a stalled network).
import net from 'node:net';

export interface FaultProxy {
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  readonly port: number;
  /** How many client connections are open through the proxy. */
  connections(): number;
  /** Closes every open connection now, both sides (`reset`: with a TCP RST instead of a FIN). */
  dropAll(options?: { reset?: boolean }): void;
  /**
   * The next bytes PostgreSQL sends on any connection are not forwarded: that connection is closed instead,
   * mid-query. Resolves when it happened.
   */
  dropOnNextAnswer(): Promise<void>;
  /**
   * When a client sends a query whose text contains `text` (without regard to case), the query reaches
   * PostgreSQL, but its answer does not: the connection is closed at its first byte (mid-transaction, when
   * the query is one of a transaction's). Resolves when it happened.
   */
  dropAfterQuery(text: string): Promise<void>;
  /** The same for the statement COMMIT itself (mid-COMMIT: it may have been applied, unseen by the client). */
  dropAfterCommit(): Promise<void>;
  /** Forwards nothing either way (connections stay open, new ones are accepted and hang) until `resume`. */
  stall(): void;
  resume(): void;
  /** Closes the proxy and every connection through it. */
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  server: net.Socket;
}

type Trigger = { kind: 'answer' } | { kind: 'query'; sent: (chunk: Buffer) => boolean; pair?: Pair };

/** A simple-protocol query message (what node-postgres sends for a statement without parameters). */
function simpleQuery(text: string): Buffer {
  const body = Buffer.from(`${text}\0`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('Q', 0, 'latin1');
  header.writeUInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const COMMITS = [simpleQuery('commit'), simpleQuery('COMMIT')];

/** Starts a proxy to `target` (host and port of a PostgreSQL server) on a free loopback port. */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const pairs = new Set<Pair>();
  let stalled = false;
  const triggers: { trigger: Trigger; fired: () => void }[] = [];

  const end = (pair: Pair, reset = false) => {
    pairs.delete(pair);
    for (const socket of [pair.client, pair.server]) {
      if (reset) socket.resetAndDestroy();
      else socket.destroy();
    }
  };
  const fire = (index: number) => {
    const [armed] = triggers.splice(index, 1);
    armed?.fired();
  };

  const forward = (pair: Pair) => {
    pair.client.on('data', (chunk: Buffer) => {
      for (const { trigger } of triggers) {
        if (trigger.kind === 'query' && trigger.pair === undefined && trigger.sent(chunk))
          trigger.pair = pair;
      }
      pair.server.write(chunk);
    });
    pair.server.on('data', (chunk: Buffer) => {
      const index = triggers.findIndex(
        ({ trigger }) => trigger.kind === 'answer' || (trigger.kind === 'query' && trigger.pair === pair),
      );
      if (index >= 0) {
        end(pair);
        fire(index);
        return;
      }
      pair.client.write(chunk);
    });
    for (const socket of [pair.client, pair.server]) {
      socket.on('error', () => end(pair));
      socket.on('close', () => end(pair));
    }
    if (stalled) {
      pair.client.pause();
      pair.server.pause();
    }
  };

  const proxy = net.createServer((client) => {
    const server = net.connect(target.port, target.host);
    const pair = { client, server };
    pairs.add(pair);
    forward(pair);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as net.AddressInfo;

  const arm = (trigger: Trigger) =>
    new Promise<void>((resolve) => {
      triggers.push({ trigger, fired: resolve });
    });

  return {
    port,
    urlFor(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.href;
    },
    connections: () => pairs.size,
    dropAll(options = {}) {
      for (const pair of [...pairs]) end(pair, options.reset === true);
    },
    dropOnNextAnswer: () => arm({ kind: 'answer' }),
    dropAfterQuery: (text) =>
      arm({
        kind: 'query',
        sent: (chunk) => chunk.toString('latin1').toLowerCase().includes(text.toLowerCase()),
      }),
    dropAfterCommit: () =>
      arm({ kind: 'query', sent: (chunk) => COMMITS.some((commit) => chunk.includes(commit)) }),
    stall() {
      stalled = true;
      for (const { client, server } of pairs) {
        client.pause();
        server.pause();
      }
    },
    resume() {
      stalled = false;
      for (const { client, server } of pairs) {
        client.resume();
        server.resume();
      }
    },
    async close() {
      for (const pair of [...pairs]) end(pair);
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
