import type { Logger } from './runtime/logger.js';
import type { TaskBoard } from './task-board.js';
import type { ObjectSchema, PromptSpec, ResourceSpec, ToolMiddleware, ToolSpec } from './tool-spec.js';

/** The OAuth scopes of one domain (see `Domain.scopes`). */
export interface DomainScopes {
  readonly read: string;
  readonly write: string;
  /** Scopes no request needs but the domain's handlers look for (an admin scope); listed as supported. */
  readonly extra?: readonly string[];
}

/** A domain's PostgreSQL side: its own URL variable (over SWITCHYARD_DATABASE_URL) and its migrations. */
export interface DomainPostgres {
  readonly variable: string;
  /** The committed drizzle-kit migrations for PostgreSQL (a folder path). */
  readonly migrationsFolder: string;
}

/** Environment variables as a domain reads its configuration from them. */
export type Env = Readonly<Record<string, string | undefined>>;

/** What a server gives a domain when it opens it (once per process). */
export interface DomainRuntime {
  /** The domain's own logger (stderr, structured, correlation ids, secrets redacted). */
  logger: Logger;
  /** The data directory of this process (`SWITCHYARD_DATA_DIR` or the platform's user data directory). */
  dataDir: string;
  /** The environment the server was started with (secrets a domain may use come from here, never from a call). */
  env: Env;
  /** Aborted when shutdown gives up waiting for in-flight calls; long work started elsewhere can watch it. */
  shutdownSignal: AbortSignal;
}

/** A client's cancel of one of its requests: the caller's principal and the request's id as JSON text. */
export interface CancelledRequest {
  principal: string;
  requestId: string;
}

/** The part of an opened domain the server drives: readiness, cancels relayed over HTTP, and shutdown. */
export interface DomainLifecycle {
  /** Whether the domain can serve (databases open, migrations applied); `/readyz` asks it. */
  ready?(): boolean | Promise<boolean>;
  /**
   * A `notifications/cancelled` that came over HTTP. HTTP is stateless, so the cancelled call runs in another
   * server instance, often another process: the SDK cannot abort it. A domain whose calls hold shared state
   * while they work (a run's lease in the database) reaches the call through it; `ToolCall.requestId` is the
   * id to match.
   */
  cancelRequest?(cancel: CancelledRequest): Promise<void>;
  /** Flush, close databases, abort background work. Called once, on shutdown. */
  close(): Promise<void>;
}

/**
 * A domain, declared once as data: its configuration, how to open it, and its tools, resources and prompts.
 * Servers (a domain's own bin, the combined server, tests) decide which tools to show and under which names
 * from this declaration before anything is opened; handlers receive the opened state in `call.state`.
 */
export interface Domain<
  Config = unknown,
  State extends DomainLifecycle = DomainLifecycle,
  /** What handlers receive (`callState`); by default the opened state, typed by each domain's own specs. */
  CallState = unknown,
> {
  /** "transit", "launch-runs", "journey-continuity". */
  readonly name: string;
  /** The package's version. */
  readonly version: string;
  /** A human title for the domain ("London and Helsinki transit"). */
  readonly title: string;
  /** Tells a model what the domain is for and how its tools fit together (part of the server instructions). */
  readonly instructions: string;
  /** The word `--tool-prefix` puts before a tool name that does not already contain it (`transit`). */
  readonly toolPrefix: string;
  /**
   * The OAuth scopes a caller needs for this domain over HTTP with OAuth: `read` for the tools annotated
   * read-only (and the domain's resources and prompts), `write` for the others; a tool's own `scope` wins.
   * Default `<toolPrefix>:read` and `<toolPrefix>:write`.
   */
  readonly scopes?: DomainScopes;
  /**
   * A small SVG (its text): its standalone server's icon. Not repeated beside each tool: the same `data:` URI
   * on every tool of a domain was a tenth of the combined server's listing.
   */
  readonly icon?: string;
  /** Where the domain keeps its data on PostgreSQL, when it can (`switchyard migrate` applies these). */
  readonly postgres?: DomainPostgres;
  /** Environment → configuration; throws an error that names the variable that is wrong. */
  config(env: Env): Config;
  /**
   * What a start-up report says of the domain mounted with this configuration (never a secret): where its data
   * lives, what it serves. `why` is what its `AutoMount` said, if anything.
   */
  describe?(config: Config, dataDir: string, why: string | undefined): string;
  /** The largest request (bytes, JSON-RPC framing included) this configuration's tools accept, if above 1 MiB. */
  maxRequestBytes?(config: Config): number | undefined;
  /** Opens databases and clients (once per process). */
  open(config: Config, runtime: DomainRuntime): State | Promise<State>;
  /**
   * What handlers receive as `call.state` when it is not the opened state itself: a domain that loads part of
   * itself on first use (launch-runs' run store) resolves it here, before each handler, so that handlers work
   * with plain state. A failure here is the call's error, as if its handler had thrown it. Middleware still
   * sees the opened state.
   */
  callState?(state: State): Promise<CallState>;
  readonly tools: readonly ToolSpec<CallState, Config>[];
  readonly resources?: readonly ResourceSpec<CallState>[];
  readonly prompts?: readonly PromptSpec<CallState, Config>[];
  /**
   * Where the domain keeps the tasks its tools start (tools with `task`): `tasks/get`, `tasks/update` and
   * `tasks/cancel` for a task id minted for this domain reach it. Resolved from the handlers' state, per request.
   */
  tasks?(state: CallState): TaskBoard;
  /** Cross-cutting work around every tool call of this domain (tracing spans, metrics), outermost first. */
  readonly middleware?: readonly ToolMiddleware<State>[];
}

/** Whether a server that hosts several domains mounts one, decided from the environment. */
export type MountDecision =
  /** Mounted, its `config` reading `env`; `why` goes to the start-up report. */
  | { mount: true; env: Env; why?: string }
  /** Skipped: why, and what would mount it (variable names, never values). */
  | { mount: false; reason: string };

/**
 * How a domain mounts in a server that hosts several (`named`: the person listed it, as with `--domains`).
 * Kept apart from the declaration, in a module that loads nothing else, so that deciding to skip a domain
 * never loads its package.
 */
export type AutoMount = (env: Env, named: boolean) => MountDecision;

/** The rule of a domain without one of its own: mounted whenever it is wanted. */
export const mountWhenWanted: AutoMount = (env) => ({ mount: true, env });

/** A domain with its configuration read: what a server mounts. */
export interface Mount<Config = unknown, State extends DomainLifecycle = DomainLifecycle> {
  domain: Domain<Config, State>;
  config: Config;
}

/** Declares a domain; the identity function that lets TypeScript check the declaration as a whole. */
export function defineDomain<Config, State extends DomainLifecycle, CallState>(
  domain: Domain<Config, State, CallState>,
): Domain<Config, State, CallState> {
  return domain;
}

/** Reads a domain's configuration from `env` and pairs the two. */
export function mount<Config, State extends DomainLifecycle>(
  domain: Domain<Config, State>,
  env: Env = process.env,
): Mount<Config, State> {
  return { domain, config: domain.config(env) };
}

/**
 * Typed spec builders for one domain: `const { tool } = specsFor<State, Config>()`, then
 * `tool({ ...; handler(input, call) {...} })` infers the schemas and types `call.state`.
 */
export function specsFor<State, Config = unknown>(): {
  tool<I extends ObjectSchema, O extends ObjectSchema>(
    spec: ToolSpec<State, Config, I, O>,
  ): ToolSpec<State, Config, I, O>;
  resource(spec: ResourceSpec<State>): ResourceSpec<State>;
  prompt(spec: PromptSpec<State, Config>): PromptSpec<State, Config>;
  middleware(middleware: ToolMiddleware<State>): ToolMiddleware<State>;
} {
  return {
    tool: (spec) => spec,
    resource: (spec) => spec,
    prompt: (spec) => spec,
    middleware: (middleware) => middleware,
  };
}
