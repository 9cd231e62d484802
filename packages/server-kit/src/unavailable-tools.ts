import type { Domain } from './domain.js';
import type { ToolSpec } from './tool-spec.js';

/**
 * A domain the server knows but did not mount (a key not set, left out of a domain list), and why. A call to
 * one of its tools answers that reason instead of "unknown tool"; the server's instructions name it.
 */
export interface UnmountedDomain {
  name: string;
  /** Why it is not mounted and what would mount it, in a person's words (variable names, never values). */
  reason: string;
  /** Its declaration: loaded only when a call names a tool the server does not offer. */
  load(): Promise<Pick<Domain, 'toolPrefix' | 'tools'>>;
}

/** A tool a mounted domain declares but its configuration leaves out (`when`). */
export interface DormantTool {
  /** The name a client would call it by (prefixed when the server prefixes). */
  name: string;
  domain: string;
  /** What the configuration lacks for it (ToolSpec.needs). */
  needs?: string;
}

/**
 * The name a client would call a tool of `domain` by, or undefined when the server's filters hide it (read-only,
 * allow and deny): the catalog's rule, given to this module so that hidden tools stay unknown.
 */
export type ExposedName = (spec: ToolSpec, toolPrefix: string) => string | undefined;

const HOW_TO_SET =
  'Set variables in the environment the server starts with (a client that starts it over stdio passes them ' +
  'in the "env" of its entry; the MCP Inspector takes -e NAME=value), then start it again.';

/** "a, b and c". */
function listed(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The tools a server knows but does not offer because of how it was configured, and what to set to offer them:
 * the answer to a call that names one, and the paragraph of the server's instructions that names them.
 */
export class UnavailableTools {
  /** Each unmounted domain's tools by the name a client would call them, loaded on the first miss. */
  private unmountedTools?: Promise<Map<string, { domain: UnmountedDomain; needs?: string }>>;

  constructor(
    private readonly dormant: ReadonlyMap<string, DormantTool>,
    private readonly unmounted: readonly UnmountedDomain[],
    private readonly exposedName: ExposedName,
  ) {}

  /** Why `name` is not offered and what to set, or undefined when the server knows no such tool. */
  async explain(name: string): Promise<string | undefined> {
    const dormant = this.dormant.get(name);
    if (dormant !== undefined) {
      if (dormant.needs === undefined) {
        return `Tool "${name}" is off in this server: the configuration of ${dormant.domain} does not offer it.`;
      }
      return `Tool "${name}" is off in this server: it needs ${dormant.needs}. ${HOW_TO_SET}`;
    }
    const unmounted = (await this.loadUnmounted()).get(name);
    if (unmounted === undefined) return undefined;
    const needs = unmounted.needs === undefined ? '' : `; the tool needs ${unmounted.needs}`;
    return (
      `Tool "${name}" is off in this server: its domain, ${unmounted.domain.name}, is not mounted ` +
      `(${unmounted.domain.reason})${needs}. ${HOW_TO_SET}`
    );
  }

  /** The paragraph the server's instructions end with, or undefined when everything known is offered. */
  summary(): string | undefined {
    const lines = this.unmounted.map((domain) => `- ${domain.name} is not mounted: ${domain.reason}.`);
    const byNeed = new Map<string, DormantTool[]>();
    for (const tool of this.dormant.values()) {
      const key = `${tool.domain}\n${tool.needs ?? ''}`;
      byNeed.set(key, [...(byNeed.get(key) ?? []), tool]);
    }
    for (const tools of byNeed.values()) {
      const [first] = tools as [DormantTool];
      const names = listed(tools.map((tool) => tool.name));
      lines.push(
        first.needs === undefined
          ? `- ${first.domain}'s ${names}: not offered by its configuration.`
          : `- ${first.domain}'s ${names}: off, ${tools.length === 1 ? 'it needs' : 'they need'} ${first.needs}.`,
      );
    }
    if (lines.length === 0) return undefined;
    return ['Off in this server (a call to one of these tools answers what to set):', ...lines].join('\n');
  }

  private loadUnmounted(): Promise<Map<string, { domain: UnmountedDomain; needs?: string }>> {
    this.unmountedTools ??= (async () => {
      const tools = new Map<string, { domain: UnmountedDomain; needs?: string }>();
      for (const domain of this.unmounted) {
        // A declaration that cannot load leaves its tools unknown: the answer a server without it gives.
        const declaration = await domain.load().catch(() => undefined);
        for (const spec of declaration?.tools ?? []) {
          const name = this.exposedName(spec, declaration?.toolPrefix ?? domain.name);
          if (name !== undefined && !tools.has(name)) tools.set(name, { domain, needs: spec.needs });
        }
      }
      return tools;
    })();
    return this.unmountedTools;
  }
}
