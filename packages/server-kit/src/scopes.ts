import type { Catalog } from './catalog.js';
import type { Domain, DomainScopes } from './domain.js';
import type { ToolSpec } from './tool-spec.js';

/** RFC 6749 §3.3 `scope-token`: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** A domain's scopes as it declares them, else `<toolPrefix>:read` and `<toolPrefix>:write`. */
export function domainScopes(domain: Pick<Domain, 'scopes' | 'toolPrefix'>): DomainScopes {
  return domain.scopes ?? { read: `${domain.toolPrefix}:read`, write: `${domain.toolPrefix}:write` };
}

/** The scope one tool needs: its own, else its domain's read or write scope by its read-only annotation. */
export function toolScope(
  domain: Pick<Domain, 'scopes' | 'toolPrefix'>,
  spec: Pick<ToolSpec, 'scope' | 'annotations'>,
): string {
  const scopes = domainScopes(domain);
  return spec.scope ?? (spec.annotations.readOnlyHint ? scopes.read : scopes.write);
}

/** What a request needs: the scope, and the thing it is for (named in the 403 message). */
export interface ScopeNeed {
  scope: string;
  target: string;
}

/** A prompt or resource template, as `completion/complete` names what it completes. */
interface CompletionRefLike {
  type?: unknown;
  name?: unknown;
  uri?: unknown;
}

interface JsonRpcRequestLike {
  method?: unknown;
  params?: { name?: unknown; uri?: unknown; ref?: CompletionRefLike | null } | null;
}

function checkScopeToken(scope: string, owner: string): string {
  if (!SCOPE_TOKEN.test(scope)) {
    throw new Error(
      `${owner} declares the scope "${scope}", which is not an OAuth scope token (RFC 6749 3.3)`,
    );
  }
  return scope;
}

/** The text of a URI template before its first expression: `launch://runs/`. */
function literalPrefix(uriTemplate: string): string {
  const brace = uriTemplate.indexOf('{');
  return brace === -1 ? uriTemplate : uriTemplate.slice(0, brace);
}

/**
 * The scope every request of a catalog needs, decided once from the domains' declarations: `tools/call`
 * needs the tool's scope; `resources/read`, `prompts/get` and `completion/complete` (whose values are the
 * caller's own records: run ids, saved places) the read scope of the domain that offers the resource or
 * prompt. Everything else (initialize, the lists, ping) needs only a valid token.
 */
export class ScopeTable {
  /** Every scope the catalog uses, sorted (Protected Resource Metadata's `scopes_supported`). */
  readonly supported: readonly string[];
  /**
   * The scopes some request needs, sorted: what a 401 challenge asks for. A domain's extra scopes (an admin
   * scope) are left out, because clients ask for every scope a challenge names.
   */
  readonly requested: readonly string[];
  private readonly tools = new Map<string, string>();
  private readonly prompts = new Map<string, string>();
  /** Longest literal prefix first, so the most specific template wins. */
  private readonly resources: { prefix: string; scope: string }[] = [];

  constructor(catalog: Catalog) {
    const all = new Set<string>();
    const extra = new Set<string>();
    for (const [name, tool] of catalog.tools) {
      const domain = catalog.domains.get(tool.domain)?.mount.domain;
      if (domain === undefined) continue;
      const scope = checkScopeToken(toolScope(domain, tool.spec), `tool "${name}"`);
      this.tools.set(name, scope);
      all.add(scope);
    }
    for (const [name, entry] of catalog.domains) {
      const scopes = domainScopes(entry.mount.domain);
      const read = checkScopeToken(scopes.read, `domain "${name}"`);
      checkScopeToken(scopes.write, `domain "${name}"`);
      for (const prompt of entry.prompts) this.prompts.set(prompt.name, read);
      for (const resource of entry.resources) {
        this.resources.push({ prefix: literalPrefix(resource.uriTemplate), scope: read });
      }
      if (entry.prompts.length > 0 || entry.resources.length > 0) all.add(read);
      for (const scope of scopes.extra ?? []) extra.add(checkScopeToken(scope, `domain "${name}"`));
    }
    this.resources.sort((a, b) => b.prefix.length - a.prefix.length);
    this.requested = [...all].sort();
    this.supported = [...new Set([...all, ...extra])].sort();
  }

  /** The scope `message` (one JSON-RPC message, parsed) needs, if any. */
  needFor(message: unknown): ScopeNeed | undefined {
    if (message === null || typeof message !== 'object') return undefined;
    const { method, params } = message as JsonRpcRequestLike;
    if (method === 'tools/call') return namedNeed(this.tools, params?.name, 'the tool');
    if (method === 'prompts/get') return namedNeed(this.prompts, params?.name, 'the prompt');
    if (method === 'resources/read') return this.resourceNeed(params?.uri, 'the resource');
    if (method === 'completion/complete') {
      const ref = params?.ref;
      if (ref?.type === 'ref/prompt') return namedNeed(this.prompts, ref.name, 'completing the prompt');
      if (ref?.type === 'ref/resource') return this.resourceNeed(ref.uri, 'completing the resource');
    }
    return undefined;
  }

  /** A resource URI, or the URI template `completion/complete` names, by its most specific literal prefix. */
  private resourceNeed(uri: unknown, target: string): ScopeNeed | undefined {
    if (typeof uri !== 'string') return undefined;
    const scope = this.resources.find((resource) => uri.startsWith(resource.prefix))?.scope;
    return scope === undefined ? undefined : { scope, target };
  }
}

/** The scope of the tool or prompt `name` names in `scopes`; the target names it only when it exists. */
function namedNeed(scopes: ReadonlyMap<string, string>, name: unknown, what: string): ScopeNeed | undefined {
  const scope = typeof name === 'string' ? scopes.get(name) : undefined;
  return scope === undefined ? undefined : { scope, target: `${what} "${String(name)}"` };
}
