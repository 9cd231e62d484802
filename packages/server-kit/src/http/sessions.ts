import type http from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InFlightTracker } from '../in-flight.js';
import type { Logger } from '../logger.js';

export interface SessionLimits {
  /** Open sessions at most; a new one evicts the least recently used idle session. */
  maxSessions: number;
  /** A session with no open request or stream this long is closed; 0 = never. */
  idleTimeoutMs: number;
}

export interface Session {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  /** POST and DELETE responses still open: a session with one is busy and never evicted. */
  requests: number;
  /** GET streams still open (the client listening for server messages). */
  streams: number;
  lastActive: number;
}

export async function closeQuietly(server: McpServer, logger: Logger): Promise<void> {
  try {
    await server.close();
  } catch (error) {
    logger.warn('closing an MCP server failed', { error });
  }
}

/**
 * The stateful endpoint's sessions, bounded: at most `maxSessions` (sessions being opened count too), in
 * least-recently-used order (a Map keeps insertion order; every use moves a session to the end). When full,
 * the least recently used session without a request in flight is evicted; its client's next request gets
 * 404 and it initializes again. Sessions idle for `idleTimeoutMs` are closed by a sweep.
 */
export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  /** Initializations under way: they will become sessions, so they take room. */
  private readonly opening = new InFlightTracker();
  private readonly sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: SessionLimits,
    private readonly logger: Logger,
  ) {
    if (limits.idleTimeoutMs > 0) {
      this.sweeper = setInterval(() => this.expireIdle(), Math.min(limits.idleTimeoutMs, 60_000));
      this.sweeper.unref();
    }
  }

  get size(): number {
    return this.sessions.size;
  }

  get(sessionId: string): Session | undefined {
    return this.sessions.get(sessionId);
  }

  /**
   * Takes room for one new session, evicting idle ones if needed: a function that gives the room back
   * (call it once the session is added or abandoned), or undefined when every session is busy.
   */
  reserve(): (() => void) | undefined {
    while (this.sessions.size + this.opening.count >= this.limits.maxSessions) {
      if (!this.evictLeastRecentlyUsed()) return undefined;
    }
    return this.opening.begin();
  }

  add(sessionId: string, session: Session): void {
    this.sessions.set(sessionId, session);
    this.logger.debug('session opened', { sessionId, sessions: this.sessions.size });
  }

  /** Forgets a session whose transport closed (DELETE, or closed by us). */
  remove(sessionId: string): void {
    if (this.sessions.delete(sessionId)) {
      this.logger.debug('session closed', { sessionId, sessions: this.sessions.size });
    }
  }

  /** Counts a request (or GET stream) from now until its response closes, and marks the session used. */
  track(session: Session, kind: 'requests' | 'streams', res: http.ServerResponse): void {
    session[kind] += 1;
    this.touch(session);
    res.once('close', () => {
      session[kind] -= 1;
      this.touch(session);
    });
  }

  /** Every session, removed from the table (for shutdown). */
  drain(): Session[] {
    clearInterval(this.sweeper);
    const open = [...this.sessions.values()];
    this.sessions.clear();
    return open;
  }

  private touch(session: Session): void {
    session.lastActive = Date.now();
    const sessionId = session.transport.sessionId;
    // Still ours (initialized, not evicted or closed meanwhile): move it to the most recently used end.
    if (sessionId !== undefined && this.sessions.get(sessionId) === session) {
      this.sessions.delete(sessionId);
      this.sessions.set(sessionId, session);
    }
  }

  private evictLeastRecentlyUsed(): boolean {
    for (const [sessionId, session] of this.sessions) {
      if (session.requests > 0) continue;
      this.close(sessionId, session);
      this.logger.info('session evicted: the session limit was reached', {
        sessionId,
        maxSessions: this.limits.maxSessions,
      });
      return true;
    }
    return false;
  }

  private expireIdle(): void {
    const now = Date.now();
    for (const [sessionId, session] of this.sessions) {
      if (session.requests + session.streams > 0 || now - session.lastActive < this.limits.idleTimeoutMs) {
        continue;
      }
      this.close(sessionId, session);
      this.logger.info('session expired after inactivity', {
        sessionId,
        idleTimeoutMs: this.limits.idleTimeoutMs,
      });
    }
  }

  private close(sessionId: string, session: Session): void {
    this.sessions.delete(sessionId);
    void closeQuietly(session.server, this.logger);
  }
}
