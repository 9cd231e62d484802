import type { SwitchyardError } from '@switchyard/contracts/errors';
import type { ViewName } from '@switchyard/views';
import type { z } from 'zod';
import type { AskClient, ClientCapabilityName, ClientInput } from './input-required.js';
import type { OAuthCaller } from './principal.js';
import type { Logger } from './runtime/logger.js';
import type { TaskCall, TaskStarted } from './task-board.js';

export type ObjectSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/** MCP tool annotations (hints a client may show; never trusted for security). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  openWorldHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
}

export interface ProgressReporter {
  /** True when the client asked for progress (sent a progress token). */
  readonly enabled: boolean;
  /** Sends `notifications/progress`; a no-op when the client sent no token. Never throws. */
  report(progress: number, total?: number, message?: string): Promise<void>;
}

export type ClientLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error';

/**
 * What a tool handler gets besides its validated input. `clientCapabilities`, `inputResponses` and
 * `requestState` (ClientInput) say what the client can answer and what it answered to the handler's last
 * `askClient`.
 */
export interface ToolCall<State = unknown> extends ClientInput {
  /** The domain as `open` returned it. */
  state: State;
  correlationId: string;
  /** Aborted when the client cancels the request or the server shuts down. */
  signal: AbortSignal;
  /**
   * The request's JSON-RPC id as JSON text (`7`, `"a"`): with `principal`, what the client's
   * `notifications/cancelled` names. Over stateless HTTP that cancel may reach another process than the one
   * running the call (DomainLifecycle.cancelRequest).
   */
  requestId?: string;
  /** Who is calling: the token's subject over HTTP with auth, else the local OS user. */
  principal: string;
  /** Present when the caller authenticated with an OAuth access token: its subject and scopes. */
  oauth?: OAuthCaller | undefined;
  progress: ProgressReporter;
  /** The server's log (stderr), with the domain and tool in every line. */
  logger: Logger;
  /**
   * Log messages for this client while the call runs (`notifications/message` tied to the request, so they
   * travel on its own response stream, over HTTP as well), at or above the level the client set; a no-op
   * once the client has gone. Absent only when a tool is called outside a server (`callTool` directly).
   */
  log?: (level: ClientLogLevel, data: unknown) => void;
  /**
   * Log messages for this client that may arrive after the answer (`notifications/message`): present only
   * on a connection that outlives the call (a 2025-era stdio connection), where background work started by
   * the call can still report to the client. Over HTTP every request has its own server, gone with the answer.
   */
  laterLog?: (level: ClientLogLevel, data: unknown) => void;
  /**
   * The most bytes this call's answer may take, its payload and text mirror serialized: the answer limit
   * (SWITCHYARD_MAX_ANSWER_BYTES) less what earlier answers of the same batch took. A tool whose one item
   * could pass it (a large artifact) sizes that item with it; lists are cut by the spec's `paging`.
   */
  answerBytes: number;
  /**
   * Present when the request declared the Tasks extension and the tool may answer with a task (`ToolSpec.task`):
   * the handler makes the task durable on its domain's board under `task.id`, then returns `taskStarted(id)`.
   */
  task?: TaskCall;
}

export interface ErrorPayloadContext {
  correlationId: string;
  /** The raw arguments the client sent (not validated: read defensively). */
  input: unknown;
}

/** Where a failure happened: before the handler (arguments) or in it. */
export type FailureStage = 'input' | 'handler';

/** What an answer cut to the answer limit kept and left out, each by the path of its list. */
export interface AnswerCut {
  kept: Readonly<Record<string, number>>;
  omitted: Readonly<Record<string, number>>;
  /** The answer limit in bytes (for messages). */
  limitBytes: number;
}

/**
 * How a tool's answer is cut when it would pass the answer limit: at item boundaries of its lists, with
 * fields that tell the caller how to get what was left out (a cursor, a warning naming what to narrow).
 */
export interface AnswerPaging<Input = unknown, Output = Record<string, unknown>> {
  /**
   * The payload's arrays that may lose items, as paths from the payload's top (`sessions`,
   * `validation_report.issues`). The last items of the first list are left out first, then the next list's.
   */
  lists: readonly string[];
  /**
   * The fields to set on the cut answer (merged at the payload's top), from the input and the whole payload;
   * the cut answer is checked against the contract like any other.
   */
  rest(cut: AnswerCut, input: Input, payload: Output): Record<string, unknown>;
}

/**
 * One contract tool as data: what `tools/list` shows and how a call is answered. The server validates the
 * arguments with `input`, calls `handler`, checks the result against `output`, and turns a thrown error
 * into the contract's error payload (`isError: true`).
 */
export interface ToolSpec<
  State = unknown,
  Config = unknown,
  I extends ObjectSchema = ObjectSchema,
  O extends ObjectSchema = ObjectSchema,
> {
  /** The tool name exactly as the contract gives it. */
  name: string;
  title: string;
  /** Tells a model when to use the tool. */
  description: string;
  /** The contract's input schema; every field described. */
  input: I;
  /** The contract's success payload schema. */
  output: O;
  annotations: ToolAnnotations;
  /** The OAuth scope a caller needs to call it over HTTP with OAuth; default the domain's (`Domain.scopes`). */
  scope?: string;
  /** Builds the contract's error payload from a domain error (validation failures included). */
  errorPayload(error: SwitchyardError, context: ErrorPayloadContext): Record<string, unknown>;
  /**
   * The contract's error payload schema (e.g. `HslErrorPayloadSchema`). It is listed in `outputSchema` next
   * to `output`, because clients check `structuredContent` against the listed schema even on `isError`
   * results; in strict mode an error payload that breaks it fails the call loudly. Default: any object
   * with an `error` object. Not needed with `isErrorOutput`, where the success envelope carries failures.
   */
  errorOutput?: ObjectSchema;
  /** For contracts whose failures share the success envelope (planJourney): which outputs are errors. */
  isErrorOutput?(output: z.output<O>): boolean;
  /** Refines a failure before its payload is built (a contract's own validation code, say). */
  mapError?(error: SwitchyardError, context: { stage: FailureStage; input: unknown }): SwitchyardError;
  /** How an answer over the answer limit is cut; without it such an answer is refused (a defect). */
  paging?: AnswerPaging<z.output<I>, z.output<O>>;
  /**
   * The MCP Apps view that shows the tool's answers (a `ui://` resource, `@switchyard/views`): tools/list names
   * it in the tool's `_meta.ui.resourceUri`, and hosts that support the extension render the answer with it.
   */
  view?: ViewName;
  /**
   * Content blocks to send after the payload's JSON text, for what a client shows rather than parses: a map as
   * an image, a recording as audio, a file the answer names as an embedded resource. Only on success; the
   * blocks count against the answer limit with the payload (an answer that would pass it is refused).
   */
  content?(output: z.output<O>, input: z.output<I>): ContentBlock[];
  /**
   * The client capabilities the tool cannot work without (`['sampling']`): a request whose client did not declare
   * one is refused before the handler runs, with the spec's MissingRequiredClientCapability error (-32021, over
   * HTTP status 400) naming what is missing. A tool that can do without reads `call.clientCapabilities` instead.
   */
  requires?: readonly ClientCapabilityName[];
  /**
   * Whether the tool may answer with a task (the Tasks extension) when the request declares it: `always`, or
   * `when-slow` (when its work is not done within `call.task.afterMs`). The handler decides and returns
   * `taskStarted(...)`; a request without the extension gets the plain answer, so no tool requires it.
   */
  task?: 'always' | 'when-slow';
  /** Whether this configuration offers the tool (default: always). */
  when?(config: Config): boolean;
  /**
   * What a configuration needs to offer the tool, in words a person acts on: the variables to set (names, never
   * values), e.g. `TFL_API_KEY, a free key from …`. A call to the tool while `when` leaves it out (or its
   * domain is not mounted) answers this instead of "unknown tool".
   */
  needs?: string;
  /**
   * The answer, or `askClient(...)`: ask the client (sampling, elicitation, roots), then be called again; or,
   * with `call.task` present, `taskStarted(...)`: the call goes on as a task.
   */
  handler(
    input: z.output<I>,
    call: ToolCall<State>,
  ): Promise<z.input<O> | AskClient | TaskStarted> | z.input<O> | AskClient | TaskStarted;
}

/** How one call ended, as middleware sees it. */
export interface ToolOutcome {
  /** The structured content sent to the client. */
  payload: Record<string, unknown>;
  /** The blocks the spec's `content` added after the payload's text mirror (a success's only). */
  content?: ContentBlock[];
  isError: boolean;
  /** The failure, when the call failed. */
  error?: SwitchyardError;
  /** Where it failed, when it did. */
  stage?: FailureStage;
  /** The handler asked the client for input instead of answering (`payload` is then empty). */
  asked?: AskClient;
  /** The handler made the call a task (`taskStarted`) instead of answering (`payload` is then empty). */
  started?: TaskStarted;
  /** `payload` serialized (the text mirror), when it was measured against the answer limit. */
  json?: string;
}

/** What middleware knows about a call before it runs. */
export interface ToolInvocation<State = unknown> {
  tool: string;
  /** The raw arguments (not validated). */
  input: Record<string, unknown>;
  correlationId: string;
  state: State;
}

/** Wraps every tool call of a domain (validation failures included). */
export interface ToolMiddleware<State = unknown> {
  /** Does its work around `next`, which it must call once, and returns what `next` returned. */
  around(invocation: ToolInvocation<State>, next: () => Promise<ToolOutcome>): Promise<ToolOutcome>;
}

/** A resource as MCP lists it. */
export interface ResourceEntry {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One content of a resource read; `_meta` may say how to read on (a part's next URI). */
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
  | { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };

/** One MCP content block, as a tool's answer (after its JSON text) or a prompt's message carries it. */
export type ContentBlock =
  | { type: 'text'; text: string }
  /** `data` base64. */
  | { type: 'image'; data: string; mimeType: string }
  /** `data` base64. */
  | { type: 'audio'; data: string; mimeType: string }
  /** A resource's contents, embedded. */
  | { type: 'resource'; resource: ResourceContents };

/**
 * What resource and prompt handlers get. The ClientInput fields carry answers only to a prompt's `get` and a
 * resource's `read` (the methods that may `askClient`); elsewhere they are empty.
 */
export interface RequestCall<State = unknown> extends ClientInput {
  state: State;
  principal: string;
  /** Present when the caller authenticated with an OAuth access token: its subject and scopes. */
  oauth?: OAuthCaller | undefined;
  signal: AbortSignal;
  logger: Logger;
}

/**
 * What a client already filled in beside the value it completes (`completion/complete`'s `context.arguments`):
 * the template's other variables, or the prompt's other arguments. Untrusted, like every argument.
 */
export type CompletionContext = Readonly<Record<string, string>>;

/** What a resource read gets: the request's facts and the bytes its contents may take. */
export interface ReadCall<State = unknown> extends RequestCall<State> {
  /**
   * The most bytes the contents may take serialized (the answer limit, less what earlier answers of the same
   * batch took): a resource larger than this is read in parts.
   */
  answerBytes: number;
}

/**
 * A family of resources under one URI template (RFC 6570, e.g. `launch://runs/{run_id}/events.ndjson`).
 * Errors thrown by its functions reach the client as JSON-RPC errors carrying the contract code built by
 * `errorPayload`.
 */
export interface ResourceSpec<State = unknown> {
  name: string;
  uriTemplate: string;
  title: string;
  description: string;
  mimeType?: string;
  /** Resources to enumerate in `resources/list` (reads work for any URI the template matches). */
  list?(call: RequestCall<State>): Promise<ResourceEntry[]>;
  read(
    uri: string,
    variables: Record<string, string>,
    call: ReadCall<State>,
  ): Promise<ResourceContents[] | AskClient>;
  /**
   * Completions for the template variable `variable`: values that start with what the user typed (the others
   * the client resolved in `context`: an artifact's name completes within its `run_id`).
   */
  complete?(
    variable: string,
    value: string,
    call: RequestCall<State>,
    context: CompletionContext,
  ): Promise<string[]>;
  errorPayload(error: SwitchyardError): { error: { code: string; message: string } };
}

export interface PromptArgumentSpec<State = unknown> {
  name: string;
  description: string;
  required?: boolean;
  /** Completions for the argument: values starting with what the user typed (the other arguments in `context`). */
  complete?(value: string, call: RequestCall<State>, context: CompletionContext): Promise<string[]>;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  /** Text, or an image, audio or embedded resource the prompt hands the model. */
  content: ContentBlock;
}

/** A prompt template a client may offer its user. */
export interface PromptSpec<State = unknown, Config = unknown> {
  name: string;
  title: string;
  description: string;
  arguments: readonly PromptArgumentSpec<State>[];
  /**
   * The tools its messages tell the model to call, by their names in the domain (before any prefix); [] for
   * none. The prompt is listed only while all of them are: `--read-only`, `--tools-deny` and `--tools-allow`
   * hide it with the tools it needs.
   */
  tools: readonly string[];
  /** Whether this configuration offers the prompt (default: always). */
  when?(config: Config): boolean;
  /** The messages, or `askClient(...)`: ask the client first, then be called again. */
  get(args: Record<string, string>, call: RequestCall<State>): Promise<PromptMessage[] | AskClient>;
  errorPayload(error: SwitchyardError): { error: { code: string; message: string } };
}
