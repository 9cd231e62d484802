import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { DomainContext, DomainModule } from './domain-module.js';
import type { Logger } from './logger.js';

/** Which tools a client sees and under which names. */
export interface CompositionOptions {
  /** Prefix every tool with its domain's prefix (`transit_`, `launch_`, `journey_`) unless it already has it. */
  toolPrefix?: boolean;
  /** Only these tools are exposed (names before or after prefixing; `*` matches any run of characters). */
  toolsAllow?: readonly string[];
  /** These tools are hidden (same matching as `toolsAllow`; deny wins). */
  toolsDeny?: readonly string[];
}

export interface CreateMcpServerOptions extends CompositionOptions {
  name: string;
  version: string;
  logger: Logger;
  dataDir: string;
  strictOutput?: boolean;
  instructions?: string;
  /** Passed to every domain as `ctx.shutdownSignal`. */
  shutdownSignal?: AbortSignal;
  /** Passed to every domain as `ctx.maxArgumentDepth`. */
  maxArgumentDepth?: number;
}

/** MCP caps tool names at 64 characters (many clients reject longer ones). */
export const MAX_TOOL_NAME_LENGTH = 64;

const DOMAIN_PREFIXES: Record<string, string> = {
  transit: 'transit',
  'launch-runs': 'launch',
  'journey-continuity': 'journey',
};

export function domainPrefix(domain: string): string {
  return DOMAIN_PREFIXES[domain] ?? domain.replace(/[^A-Za-z0-9]+/g, '_');
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

function matchesAny(patterns: readonly string[] | undefined, names: readonly string[]): boolean {
  if (patterns === undefined) return false;
  return patterns.some((pattern) => {
    const re = globToRegExp(pattern);
    return names.some((name) => re.test(name));
  });
}

type Kind = 'tool' | 'resource' | 'prompt';

/** Records which domain registered each name, and refuses a second domain that wants the same one. */
class NameRegistry {
  private readonly owners = new Map<string, string>();

  claim(kind: Kind, name: string, domain: string): void {
    const key = `${kind}:${name}`;
    const owner = this.owners.get(key);
    if (owner !== undefined) {
      throw new Error(
        `${kind} name collision: "${name}" is registered by both "${owner}" and "${domain}". ` +
          'Use --tool-prefix, or deny one of them with --tools-deny.',
      );
    }
    this.owners.set(key, domain);
  }
}

/**
 * The McpServer a domain sees: the real one, with tool names prefixed, allow/deny applied and collisions
 * with other domains refused. Domains stay unaware of composition.
 */
function scopedServer(
  server: McpServer,
  domain: string,
  registry: NameRegistry,
  options: CompositionOptions,
): McpServer {
  const prefix = domainPrefix(domain);
  const exposedName = (name: string): string =>
    options.toolPrefix && !name.startsWith(`${prefix}_`) ? `${prefix}_${name}` : name;

  const visible = (names: readonly string[]): boolean =>
    (options.toolsAllow === undefined || matchesAny(options.toolsAllow, names)) &&
    !matchesAny(options.toolsDeny, names);
  // Hidden tools are registered here instead: the domain still gets a working handle, clients never see
  // them, and they cannot collide with another domain's tool of the same name.
  let hiddenTools: McpServer | undefined;

  return new Proxy(server, {
    get(target, property, receiver) {
      if (property === 'registerTool') {
        return (name: string, ...rest: unknown[]) => {
          const exposed = exposedName(name);
          if (exposed.length > MAX_TOOL_NAME_LENGTH) {
            throw new Error(
              `Tool name "${exposed}" of domain "${domain}" is longer than ${MAX_TOOL_NAME_LENGTH} characters`,
            );
          }
          let host = target;
          if (visible([name, exposed])) {
            registry.claim('tool', exposed, domain);
          } else {
            hiddenTools ??= new McpServer({ name: `${domain}-hidden-tools`, version: '0.0.0' });
            host = hiddenTools;
          }
          const register = host.registerTool.bind(host) as (
            ...args: unknown[]
          ) => ReturnType<McpServer['registerTool']>;
          return register(exposed, ...rest);
        };
      }
      if (property === 'registerResource') {
        return (name: string, uriOrTemplate: unknown, ...rest: unknown[]) => {
          registry.claim('resource', name, domain);
          const uri = typeof uriOrTemplate === 'string' ? uriOrTemplate : undefined;
          if (uri !== undefined) registry.claim('resource', uri, domain);
          const register = target.registerResource.bind(target) as (...args: unknown[]) => unknown;
          return register(name, uriOrTemplate, ...rest);
        };
      }
      if (property === 'registerPrompt') {
        return (name: string, ...rest: unknown[]) => {
          registry.claim('prompt', name, domain);
          const register = target.registerPrompt.bind(target) as (...args: unknown[]) => unknown;
          return register(name, ...rest);
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * One McpServer with every module registered on it. Used for each stdio connection, each HTTP session and
 * in tests, so what is tested standalone holds combined. Throws on a name collision between domains.
 */
export async function createMcpServer(
  modules: readonly DomainModule[],
  options: CreateMcpServerOptions,
): Promise<McpServer> {
  const server = new McpServer(
    { name: options.name, version: options.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {}, logging: {} },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  const registry = new NameRegistry();
  for (const module of modules) {
    const ctx: DomainContext = {
      logger: options.logger.child({ domain: module.name }),
      dataDir: options.dataDir,
      strictOutput: options.strictOutput ?? false,
      ...(options.shutdownSignal === undefined ? {} : { shutdownSignal: options.shutdownSignal }),
      ...(options.maxArgumentDepth === undefined ? {} : { maxArgumentDepth: options.maxArgumentDepth }),
    };
    await module.register(scopedServer(server, module.name, registry, options), ctx);
  }
  return server;
}
