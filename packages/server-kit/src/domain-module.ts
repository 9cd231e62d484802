import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from './logger.js';

/** What the server gives a domain when it registers (once per MCP session: keep `register` cheap). */
export interface DomainContext {
  /** The domain's own logger (stderr, structured, correlation ids, secrets redacted). */
  logger: Logger;
  /** The data directory this process uses (`SWITCHYARD_DATA_DIR` or the platform's user data directory). */
  dataDir: string;
  /**
   * Validate every tool output against its contract and turn a violation into an internal error (tests);
   * otherwise a violation is logged and the output returned.
   */
  strictOutput: boolean;
  /**
   * Aborted when the server gives up waiting for in-flight calls during shutdown (the grace period is over).
   * `registerContractTool` folds it into every call's `signal`; long work started elsewhere can watch it.
   */
  shutdownSignal?: AbortSignal;
  /**
   * How deep tool arguments may nest (objects and arrays; default 64). `registerContractTool` answers deeper
   * arguments with the contract's validation error before any validator sees them.
   */
  maxArgumentDepth?: number;
}

/** The one seam between a domain and any server that mounts it (standalone bin or the combined server). */
export interface DomainModule {
  /** "transit", "launch-runs", "journey-continuity". */
  readonly name: string;
  /** The package's own version. */
  readonly version: string;
  /**
   * Registers tools, resources and prompts on `server`. Called once per MCP session (over HTTP each session
   * has its own McpServer), so it must only wire handlers; open databases and clients in the module factory.
   */
  register(server: McpServer, ctx: DomainContext): void | Promise<void>;
  /**
   * The largest request body (bytes, JSON-RPC framing and escaping included) its tools legitimately accept,
   * when that exceeds the server's default body limit; the HTTP limit is raised to it.
   */
  readonly maxRequestBytes?: number;
  /** Whether the module can serve (databases open, migrations applied); used by `/readyz`. */
  ready?(): boolean | Promise<boolean>;
  /** Flush, close databases, abort background work. Called once, on shutdown. */
  close(): Promise<void>;
}
