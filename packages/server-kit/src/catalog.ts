import type { DomainLifecycle, Mount } from './domain.js';
import { headerMirrorsOf, type HeaderMirror } from './header-mirrors.js';
import { listedTool, type ListedTool } from './tool-listing.js';
import type { PromptSpec, ResourceSpec, ToolMiddleware, ToolSpec } from './tool-spec.js';
import { UnavailableTools, type DormantTool, type UnmountedDomain } from './unavailable-tools.js';
import { addDomainViews, type CatalogView } from './views.js';

/** Which tools a client sees and under which names. */
export interface CatalogOptions {
  /** Put each domain's prefix before every tool name that does not already contain it as a word. */
  toolPrefix?: boolean;
  /** Only these tools are exposed (names before or after prefixing; `*` matches any run of characters). */
  toolsAllow?: readonly string[];
  /** These tools are hidden (same matching as `toolsAllow`; deny wins). */
  toolsDeny?: readonly string[];
  /** Only tools annotated read-only are exposed. */
  readOnly?: boolean;
  /** Domains the server knows but did not mount, and why: a call to one of their tools answers the reason. */
  unmounted?: readonly UnmountedDomain[];
}

/** The spec's rule for tool names (2025-11-25 and later). */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export interface CatalogTool {
  /** The name a client calls it by. */
  name: string;
  domain: string;
  spec: ToolSpec<DomainLifecycle, unknown>;
  listing: ListedTool;
  /** The parameters its listed input mirrors into `Mcp-Param-*` headers (`x-mcp-header`, SEP-2243). */
  headers: readonly HeaderMirror[];
}

export interface CatalogDomain {
  mount: Mount<unknown, DomainLifecycle>;
  resources: readonly ResourceSpec<unknown>[];
  prompts: readonly PromptSpec<unknown>[];
  middleware: readonly ToolMiddleware<DomainLifecycle>[];
  /** The state its handlers receive, from the opened one (`Domain.callState`; without, the opened one itself). */
  callState?: (opened: DomainLifecycle) => Promise<unknown>;
}

/** Everything a server offers, decided from the domains' declarations before any of them is opened. */
export interface Catalog {
  tools: ReadonlyMap<string, CatalogTool>;
  /** `tools/list`, in mount order. */
  listing: readonly ListedTool[];
  domains: ReadonlyMap<string, CatalogDomain>;
  /** The tools the configuration leaves out (`when`, unmounted domains), with what would offer them. */
  unavailable: UnavailableTools;
  /** The MCP Apps views of the listed tools, by `ui://` URI. */
  views: ReadonlyMap<string, CatalogView>;
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

/**
 * `journey_record_session`, but `get_or_create_journey` and `launch_start_run` as they are: a name that
 * already has the prefix as one of its words (split at `_`, `.`, `-` and camel case) is not prefixed again.
 */
export function prefixedName(name: string, prefix: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_.-]+/);
  return words.includes(prefix.toLowerCase()) ? name : `${prefix}_${name}`;
}

function visible(tool: ToolSpec, names: readonly string[], options: CatalogOptions): boolean {
  if (options.readOnly === true && tool.annotations.readOnlyHint !== true) return false;
  if (options.toolsAllow !== undefined && !matchesAny(options.toolsAllow, names)) return false;
  return !matchesAny(options.toolsDeny, names);
}

/** The name a client calls `spec` by (prefixed when asked), or undefined when the filters hide it. */
function exposedName(spec: ToolSpec, toolPrefix: string, options: CatalogOptions): string | undefined {
  const name = options.toolPrefix === true ? prefixedName(spec.name, toolPrefix) : spec.name;
  return visible(spec, [spec.name, name], options) ? name : undefined;
}

/** Records which domain offers each name, and refuses a second domain that wants the same one. */
function claim(owners: Map<string, string>, kind: string, name: string, domain: string): void {
  const owner = owners.get(`${kind}:${name}`);
  if (owner !== undefined) {
    throw new Error(
      `${kind} name collision: "${name}" is offered by both "${owner}" and "${domain}". ` +
        'Use --tool-prefix, or hide one of them with --tools-deny.',
    );
  }
  owners.set(`${kind}:${name}`, domain);
}

/**
 * Whether a prompt is listed: the configuration offers it (`when`), and every tool it tells the model to call
 * is listed. A tool the domain does not declare at all is a mistake in the prompt, refused at start.
 */
function promptOffered(
  prompt: PromptSpec<unknown>,
  domain: Mount<unknown, DomainLifecycle>,
  listedTools: ReadonlyMap<string, string>,
): boolean {
  const declared = domain.domain.tools.map((tool) => tool.name);
  const unknown = prompt.tools.find((name) => !declared.includes(name));
  if (unknown !== undefined) {
    throw new Error(
      `Prompt "${prompt.name}" of domain "${domain.domain.name}" uses the tool "${unknown}", which the domain does not declare`,
    );
  }
  return (prompt.when?.(domain.config) ?? true) && prompt.tools.every((name) => listedTools.has(name));
}

/**
 * Applies the configuration's tool choices (`when`), the filters, the prefix and the name rule to every
 * mounted domain, and refuses names two domains would share and `x-mcp-header`s that break SEP-2243's rules; a
 * prompt is offered only with its tools. Throws before anything is opened.
 */
export function buildCatalog(
  mounts: readonly Mount<unknown, DomainLifecycle>[],
  options: CatalogOptions,
): Catalog {
  const tools = new Map<string, CatalogTool>();
  const listings: ListedTool[] = [];
  const domains = new Map<string, CatalogDomain>();
  const owners = new Map<string, string>();
  const dormant = new Map<string, DormantTool>();
  const views = new Map<string, CatalogView>();
  for (const mounted of mounts) {
    const { domain, config } = mounted;
    if (domains.has(domain.name)) throw new Error(`domain "${domain.name}" is mounted twice`);
    /** This domain's listed tools: name in the domain -> name the client calls. */
    const listedTools = new Map<string, string>();
    for (const spec of domain.tools) {
      const name = exposedName(spec, domain.toolPrefix, options);
      if (name === undefined) continue;
      if (spec.when !== undefined && !spec.when(config)) {
        dormant.set(name, { name, domain: domain.name, needs: spec.needs });
        continue;
      }
      if (!TOOL_NAME.test(name)) {
        throw new Error(
          `Tool name "${name}" of domain "${domain.name}" breaks MCP's rule ${String(TOOL_NAME)}`,
        );
      }
      claim(owners, 'tool', name, domain.name);
      const listing = listedTool(spec, name);
      const headers = headerMirrorsOf(listing.inputSchema, `Tool "${name}" of domain "${domain.name}"`);
      const entry: CatalogTool = { name, domain: domain.name, spec, listing, headers };
      tools.set(name, entry);
      listings.push(listing);
      listedTools.set(spec.name, name);
    }
    addDomainViews(views, domain.name, domain.tools, listedTools);
    for (const resource of domain.resources ?? [])
      claim(owners, 'resource', resource.uriTemplate, domain.name);
    const prompts = (domain.prompts ?? []).filter((prompt) => promptOffered(prompt, mounted, listedTools));
    for (const prompt of prompts) claim(owners, 'prompt', prompt.name, domain.name);
    domains.set(domain.name, {
      mount: mounted,
      resources: domain.resources ?? [],
      prompts,
      middleware: domain.middleware ?? [],
      callState: domain.callState?.bind(domain),
    });
  }
  // A name one domain offers is not dormant for another.
  for (const name of tools.keys()) dormant.delete(name);
  const unavailable = new UnavailableTools(dormant, options.unmounted ?? [], (spec, prefix) =>
    exposedName(spec, prefix, options),
  );
  return { tools, listing: listings, domains, unavailable, views };
}
