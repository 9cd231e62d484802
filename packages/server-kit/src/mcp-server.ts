import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  UriTemplate,
  type ClientCapabilities,
  type InputRequiredResult,
  type Server,
  type McpRequestContext,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { isWellFormedText, toSwitchyardError, type SwitchyardError } from '@switchyard/contracts/errors';
import { AnswerAllowance, answerTooLarge } from './answer-budget.js';
import { assertTextArguments } from './argument-text.js';
import { callSignal } from './call-signal.js';
import { callTool, type ToolRunner } from './call-tool.js';
import type { Catalog, CatalogTool } from './catalog.js';
import type { DomainLifecycle } from './domain.js';
import {
  AskClient,
  capabilitiesAsked,
  missingCapabilities,
  type ClientCapabilityName,
  type ClientInput,
} from './input-required.js';
import { callerOAuth, callerPrincipal } from './principal.js';
import { ParamsCheckedServer } from './params-checked-server.js';
import { createProgressReporter } from './progress.js';
import type { InputRoundOptions, RequestStateSettings } from './request-state.js';
import type { Logger } from './runtime/logger.js';
import { svgIcon } from './icons.js';
import { TASKS_EXTENSION, TaskStarted } from './task-board.js';
import { handlerStateOf, type TaskBoards } from './task-boards.js';
import { domainOfTaskId, type TaskSettings } from './task-wire.js';
import { TaskDesk } from './tasks-server.js';
import { assertNoCoreListenFields, TaskListens } from './task-listens.js';
import { StateSeal } from './state-seal.js';
import type { PromptSpec, RequestCall, ResourceContents, ResourceSpec } from './tool-spec.js';
import { readView, VIEW_ERRORS } from './views.js';

/** How the server introduces itself (initialize, server/discover). */
export interface ServerIdentity {
  name: string;
  version: string;
  title?: string;
  websiteUrl?: string;
  /** A small SVG (its text), listed as the server's icon. */
  icon?: string;
  instructions?: string;
}

/** The opened domains, as `buildServerFactory` serves them. */
export interface Serving {
  catalog: Catalog;
  /** Each mounted domain's state, as its `open` returned it. */
  states: ReadonlyMap<string, DomainLifecycle>;
  /** Each mounted domain's logger. */
  loggers: ReadonlyMap<string, Logger>;
  strictOutput: boolean;
  maxArgumentDepth: number;
  /** The most bytes one answer (over HTTP: one request, a batch's answers together) may take. */
  maxAnswerBytes: number;
  /** Aborted when shutdown stops waiting for in-flight calls. */
  shutdownSignal: AbortSignal;
  /** True when one server instance serves a whole connection (stdio), false when it serves one request. */
  persistentConnection: boolean;
  /** How handlers' request state (multi round-trip requests) is sealed. */
  requestState: RequestStateSettings;
  /** 2025-11-25 over a connection: the rounds of questions the server asks the client itself. */
  inputRounds: Required<InputRoundOptions>;
  /** The Tasks extension: task lifetime, poll interval, the `when-slow` budget. */
  tasks: TaskSettings;
  /** The domains' task boards (the HTTP layer reads them too, for the scope `tasks/*` need). */
  taskBoards: TaskBoards;
}

/** The server factory, and the listens for task notifications served over the same tables (task-listens.ts). */
export type KitServerFactory = ((context: McpRequestContext) => Server) & {
  readonly taskListens: TaskListens;
};

/** Completion lists are capped by the spec at 100 values. */
const MAX_COMPLETIONS = 100;

interface ResourceFamily {
  domain: string;
  spec: ResourceSpec<unknown>;
  template: UriTemplate;
}

interface PromptEntry {
  domain: string;
  spec: PromptSpec<unknown>;
}

interface ErrorPayload {
  error: { code: string; message: string };
}

/** A domain failure, and the contract's payload for it, as a JSON-RPC error that still carries the code. */
function asProtocolError(failure: SwitchyardError, payload: ErrorPayload): ProtocolError {
  const { code, message } = payload.error;
  const jsonRpcCode =
    failure.kind === 'internal' ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams;
  return new ProtocolError(jsonRpcCode, `${code}: ${message}`, { code });
}

/**
 * A factory for the MCP server of one connection (stdio) or one request (HTTP), over domains opened once.
 * It is the low-level SDK `Server` with one handler per method, reading tables built here once: the
 * per-request cost is a handful of closures, whatever the number of tools.
 */
export function buildServerFactory(identity: ServerIdentity, serving: Serving): KitServerFactory {
  const { catalog } = serving;
  const stateOf = (domain: string): DomainLifecycle => {
    const state = serving.states.get(domain);
    if (state === undefined) throw new Error(`domain "${domain}" is not open`);
    return state;
  };
  const loggerOf = (domain: string): Logger => {
    const logger = serving.loggers.get(domain);
    if (logger === undefined) throw new Error(`domain "${domain}" has no logger`);
    return logger;
  };
  /**
   * A resource, prompt or completion handler's failure, as the JSON-RPC error that carries the contract code
   * (an internal one says no more than that, and its cause goes to the domain's log).
   */
  const handlerFailure = (
    domain: string,
    spec: { errorPayload(error: SwitchyardError): ErrorPayload },
    method: string,
    error: unknown,
  ): ProtocolError => {
    if (error instanceof ProtocolError) return error;
    const failure = toSwitchyardError(error);
    if (failure.kind === 'internal')
      loggerOf(domain).error(`${method} failed`, { outcome: 'internal', cause: failure.cause ?? failure });
    return asProtocolError(failure, spec.errorPayload(failure));
  };
  const callStateOf = (domain: string): ((opened: DomainLifecycle) => Promise<unknown>) | undefined =>
    catalog.domains.get(domain)?.callState;
  const runners = new Map<string, ToolRunner<DomainLifecycle>>();
  for (const tool of catalog.tools.values()) {
    runners.set(tool.name, {
      spec: tool.spec,
      logger: loggerOf(tool.domain).child({ tool: tool.name }),
      middleware: catalog.domains.get(tool.domain)?.middleware ?? [],
      callState: callStateOf(tool.domain),
      strictOutput: serving.strictOutput,
      maxArgumentDepth: serving.maxArgumentDepth,
    });
  }
  const resources: ResourceFamily[] = [];
  const prompts = new Map<string, PromptEntry>();
  for (const [domain, entry] of catalog.domains) {
    for (const spec of entry.resources)
      resources.push({ domain, spec, template: new UriTemplate(spec.uriTemplate) });
    for (const spec of entry.prompts) prompts.set(spec.name, { domain, spec });
  }
  const templates = resources.map(({ spec }) => ({
    uriTemplate: spec.uriTemplate,
    name: spec.name,
    title: spec.title,
    description: spec.description,
    mimeType: spec.mimeType,
  }));
  const promptListing = [...prompts.values()].map(({ spec }) => ({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    arguments: spec.arguments.map(({ name, description, required }) => ({
      name,
      description,
      required: required ?? false,
    })),
  }));
  const completes =
    resources.some(({ spec }) => spec.complete !== undefined) ||
    [...prompts.values()].some(({ spec }) => spec.arguments.some((argument) => argument.complete));
  const capabilities = {
    tools: {},
    logging: {},
    // A view is a resource too (read, not listed: tools/list names it where it is used).
    ...(resources.length > 0 || catalog.views.size > 0 ? { resources: {} } : {}),
    ...(prompts.size > 0 ? { prompts: {} } : {}),
    ...(completes ? { completions: {} } : {}),
  };
  // The kit serves a listen naming taskIds itself, honouring none of its core fields (task-listens.ts).
  assertNoCoreListenFields(capabilities);
  const taskDesk = new TaskDesk({ boards: serving.taskBoards, runners, settings: serving.tasks, loggerOf });
  // JSON Schemas from @switchyard/contracts; that they are valid tool listings is tested, not typed.
  const toolListing = { tools: catalog.listing as unknown as Tool[] };

  /** What a domain's handlers get as `call.state`: its `callState` of the opened state, or that itself. */
  const handlerState = handlerStateOf(catalog, serving.states);
  const seal = new StateSeal(serving.requestState, (ctx) => callerPrincipal(ctx.http?.authInfo));

  const findResource = (uri: string): { family: ResourceFamily; variables: Record<string, string> } => {
    for (const family of resources) {
      const matched = family.template.match(uri);
      if (matched === null) continue;
      const variables = Object.fromEntries(
        Object.entries(matched).map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : value]),
      );
      return { family, variables };
    }
    throw new ResourceNotFoundError(uri);
  };

  const implementation = {
    name: identity.name,
    version: identity.version,
    title: identity.title,
    websiteUrl: identity.websiteUrl,
    icons: identity.icon === undefined ? undefined : [svgIcon(identity.icon)],
  };

  // The Tasks extension is a 2026-07-28 one: a 2025-era server neither advertises nor serves it.
  const taskCapabilities = { ...capabilities, extensions: { [TASKS_EXTENSION]: {} } };

  const createServer = (context: McpRequestContext): Server => {
    const servesTasks = taskDesk.offered && context.era !== 'legacy';
    const server = new ParamsCheckedServer(implementation, {
      capabilities: servesTasks ? taskCapabilities : capabilities,
      instructions: identity.instructions,
      requestState: { verify: seal.verify },
      // 2025-11-25 over a connection: the SDK asks the client itself and calls the handler again.
      inputRequired: { ...serving.inputRounds, legacyShim: true },
    });
    // Over HTTP this server answers one POST: a 2025-era batch's members share one allowance, one at a time.
    const requestAllowance = serving.persistentConnection
      ? undefined
      : new AnswerAllowance(serving.maxAnswerBytes);
    const allowanceFor = (): AnswerAllowance =>
      requestAllowance ?? new AnswerAllowance(serving.maxAnswerBytes);
    const laterLog =
      serving.persistentConnection && context.era === 'legacy'
        ? (domain: string) =>
            (level: 'debug' | 'info' | 'notice' | 'warning' | 'error', data: unknown): void => {
              server.sendLoggingMessage({ level, logger: domain, data }).catch(() => undefined);
            }
        : undefined;

    // Over stateless HTTP a 2025-era request has no connection: nothing can carry a question to the client.
    const noWayToAsk = context.era === 'legacy' && !serving.persistentConnection;
    /** The client's capabilities: the request's own (2026-07-28) or the connection's `initialize` (2025). */
    const declaredBy = (ctx: ServerContext): ClientCapabilities =>
      (context.era === 'legacy'
        ? server.getClientCapabilities()
        : ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
            ClientCapabilities | undefined)) ?? {};
    /** Refuses, with the spec's -32021, a request that needs a capability its client did not declare. */
    const requireCapabilities = (needed: readonly ClientCapabilityName[], ctx: ServerContext): void => {
      if (needed.length === 0) return;
      const missing = missingCapabilities(needed, declaredBy(ctx));
      if (missing === undefined) return;
      const names = Object.keys(missing).join(', ');
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: missing },
        noWayToAsk
          ? `This needs the client's ${names}, which a 2025-11-25 request over stateless HTTP cannot reach: ` +
              'use protocol 2026-07-28, or stdio'
          : `This needs the client's ${names}: the request's client capabilities do not declare it`,
      );
    };
    /** What a handler of `target` learns about the client and its answers; first rounds get none. */
    const clientInput = (target: string, ctx: ServerContext): ClientInput => ({
      clientCapabilities: declaredBy(ctx),
      inputResponses: ctx.mcpReq.inputResponses ?? {},
      requestState: seal.open(target, ctx),
    });
    /** A handler's `askClient` as the spec's input_required result, its state sealed for `target`. */
    const inputRequired = async (
      asked: AskClient,
      target: string,
      ctx: ServerContext,
    ): Promise<InputRequiredResult> => {
      requireCapabilities(capabilitiesAsked(asked), ctx);
      return {
        resultType: 'input_required',
        inputRequests: asked.requests,
        ...(asked.state === undefined ? {} : { requestState: await seal.seal(target, asked.state, ctx) }),
      };
    };
    const requestCall = async (
      domain: string,
      ctx: ServerContext,
      target?: string,
    ): Promise<RequestCall<unknown>> => ({
      state: await handlerState(domain),
      principal: callerPrincipal(ctx.http?.authInfo),
      oauth: callerOAuth(ctx.http?.authInfo),
      signal: AbortSignal.any([ctx.mcpReq.signal, serving.shutdownSignal]),
      logger: loggerOf(domain),
      ...(target === undefined
        ? { clientCapabilities: declaredBy(ctx), inputResponses: {}, requestState: undefined }
        : clientInput(target, ctx)),
    });

    if (servesTasks) taskDesk.register(server, declaredBy);
    server.setRequestHandler('tools/list', () => toolListing);
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const tool: CatalogTool | undefined = catalog.tools.get(request.params.name);
      const runner = tool === undefined ? undefined : runners.get(tool.name);
      if (tool === undefined || runner === undefined) {
        const unavailable = await catalog.unavailable.explain(request.params.name);
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          unavailable ??
            `Unknown tool "${request.params.name}": tools/list names the tools this server offers`,
        );
      }
      requireCapabilities(tool.spec.requires ?? [], ctx);
      const target = `tools/call ${tool.name}`;
      const input = clientInput(target, ctx);
      const allowance = allowanceFor();
      const task = servesTasks ? taskDesk.callFor(tool, declaredBy(ctx)) : undefined;
      const principal = callerPrincipal(ctx.http?.authInfo);
      const { signal, release } = callSignal(ctx.mcpReq.signal, serving.shutdownSignal, task !== undefined);
      const result = await allowance.turn(() =>
        callTool(runner, request.params.arguments ?? {}, {
          ...input,
          state: stateOf(tool.domain),
          signal,
          requestId: JSON.stringify(ctx.mcpReq.id),
          principal,
          oauth: callerOAuth(ctx.http?.authInfo),
          ...(task === undefined ? {} : { task }),
          progress: createProgressReporter(ctx.mcpReq._meta?.progressToken, (notification) =>
            ctx.mcpReq.notify(notification),
          ),
          log: (level, data) => void ctx.mcpReq.log(level, data, tool.domain).catch(() => undefined),
          laterLog: laterLog?.(tool.domain),
          allowance,
        }).finally(release),
      );
      if (result instanceof AskClient) return inputRequired(result, target, ctx);
      if (result instanceof TaskStarted) {
        // The SDK types tools/call results without the Tasks extension's (flat) CreateTaskResult.
        return (await taskDesk.created(tool.domain, result.taskId, principal)) as InputRequiredResult;
      }
      return server.projectCallToolResult(result, tool.listing.outputSchema);
    });

    if (capabilities.resources !== undefined) {
      server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: templates }));
      server.setRequestHandler('resources/list', async (_request, ctx) => {
        const listed = await Promise.all(
          resources.map(async ({ domain, spec }) => {
            if (spec.list === undefined) return [];
            try {
              return await spec.list(await requestCall(domain, ctx));
            } catch (error) {
              throw handlerFailure(domain, spec, 'resources/list', error);
            }
          }),
        );
        return { resources: listed.flat() };
      });
      server.setRequestHandler('resources/read', async (request, ctx) => {
        const allowance = allowanceFor();
        const spent = (contents: ResourceContents[]): { contents: ResourceContents[] } => {
          const bytes = Buffer.byteLength(JSON.stringify(contents), 'utf8');
          if (bytes > allowance.remaining) throw answerTooLarge(allowance, bytes);
          allowance.spend(bytes);
          return { contents };
        };
        const view = catalog.views.get(request.params.uri);
        if (view !== undefined) {
          return allowance.turn(async () => {
            try {
              return spent(await readView(view));
            } catch (error) {
              throw handlerFailure(view.domain, VIEW_ERRORS, 'resources/read', error);
            }
          });
        }
        const { family, variables } = findResource(request.params.uri);
        const target = `resources/read ${request.params.uri}`;
        return allowance.turn(async () => {
          try {
            const contents = await family.spec.read(request.params.uri, variables, {
              ...(await requestCall(family.domain, ctx, target)),
              answerBytes: allowance.remaining,
            });
            if (contents instanceof AskClient) return await inputRequired(contents, target, ctx);
            return spent(contents);
          } catch (error) {
            throw handlerFailure(family.domain, family.spec, 'resources/read', error);
          }
        });
      });
    }

    if (prompts.size > 0) {
      server.setRequestHandler('prompts/list', () => ({ prompts: promptListing }));
      server.setRequestHandler('prompts/get', async (request, ctx) => {
        const entry = prompts.get(request.params.name);
        if (entry === undefined) {
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            `Unknown prompt "${request.params.name}": prompts/list names the prompts this server offers`,
          );
        }
        try {
          const args = request.params.arguments ?? {};
          assertTextArguments(args);
          const missing = entry.spec.arguments.filter((a) => a.required === true && !args[a.name]?.trim());
          if (missing.length > 0) {
            throw new ProtocolError(
              ProtocolErrorCode.InvalidParams,
              `Prompt "${entry.spec.name}" needs ${missing.map((a) => `"${a.name}"`).join(', ')}`,
            );
          }
          const target = `prompts/get ${entry.spec.name}`;
          const messages = await entry.spec.get(args, await requestCall(entry.domain, ctx, target));
          if (messages instanceof AskClient) return await inputRequired(messages, target, ctx);
          return { description: entry.spec.description, messages };
        } catch (error) {
          throw handlerFailure(entry.domain, entry.spec, 'prompts/get', error);
        }
      });
    }

    if (completes) {
      server.setRequestHandler('completion/complete', async (request, ctx) => {
        const { ref, argument } = request.params;
        // A value no store holds completes nothing, so it narrows nothing either: left out.
        const context = Object.fromEntries(
          Object.entries(request.params.context?.arguments ?? {}).filter(([, given]) =>
            isWellFormedText(given),
          ),
        );
        let values: string[] = [];
        // Text no store holds (an unpaired surrogate, a NUL) begins no stored value: nothing completes it.
        if (!isWellFormedText(argument.value)) return { completion: { values, total: 0, hasMore: false } };
        if (ref.type === 'ref/resource') {
          const family = resources.find(({ spec }) => spec.uriTemplate === ref.uri);
          if (family?.spec.complete !== undefined) {
            values = await requestCall(family.domain, ctx)
              .then((call) => family.spec.complete!(argument.name, argument.value, call, context))
              .catch((error: unknown) => {
                throw handlerFailure(family.domain, family.spec, 'completion/complete', error);
              });
          }
        } else {
          const entry = prompts.get(ref.name);
          const spec = entry?.spec.arguments.find((a) => a.name === argument.name);
          if (entry !== undefined && spec?.complete !== undefined) {
            values = await requestCall(entry.domain, ctx)
              .then((call) => spec.complete!(argument.value, call, context))
              .catch((error: unknown) => {
                throw handlerFailure(entry.domain, entry.spec, 'completion/complete', error);
              });
          }
        }
        return {
          completion: {
            values: values.slice(0, MAX_COMPLETIONS),
            total: values.length,
            hasMore: values.length > MAX_COMPLETIONS,
          },
        };
      });
    }
    return server;
  };
  const taskListens = new TaskListens({
    settings: serving.tasks,
    detailed: (taskId, principal, server) => taskDesk.detailed({ taskId, principal }, server),
    serverFor: (authInfo) => createServer({ era: 'modern', ...(authInfo === undefined ? {} : { authInfo }) }),
    serverInfo: implementation,
    // Only a board's read fails, and a board is found through the domain its task id names.
    loggerOf: (taskId) => loggerOf(domainOfTaskId(taskId) ?? ''),
  });
  return Object.assign(createServer, { taskListens });
}
