import type { SwitchyardError } from '@switchyard/contracts/errors';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildCatalog,
  defineDomain,
  prefixedName,
  runServer,
  specsFor,
  svgIcon,
  type CatalogOptions,
  type Domain,
  type DomainLifecycle,
  type Mount,
  type ToolSpec,
} from '../src/index.js';
import { connectInMemory } from '../src/testing.js';
import { memoryLogger, tempDir } from './helpers.js';

interface ToolsConfig {
  /** Tools this configuration offers; every tool when undefined. */
  offered?: readonly string[];
}

const { tool, resource, prompt } = specsFor<DomainLifecycle, ToolsConfig>();

const errorPayload = (error: SwitchyardError) => ({ error: { kind: error.kind, message: error.message } });

function namedTool(domain: string, name: string, readOnly = true): ToolSpec<DomainLifecycle, ToolsConfig> {
  return tool({
    name,
    title: name,
    description: `${name} of ${domain}`,
    input: z.strictObject({}),
    output: z.strictObject({ from: z.string().describe('Which domain and tool answered.') }),
    annotations: { readOnlyHint: readOnly, openWorldHint: false },
    errorPayload,
    when: (config) => config.offered?.includes(name) ?? true,
    handler: () => ({ from: `${domain}:${name}` }),
  });
}

interface ToolsDomainOptions {
  prefix?: string;
  /** Tools not annotated read-only. */
  writes?: string[];
  resources?: string[];
  /** Each prompt's name, and the tools it tells the model to call. */
  prompts?: Record<string, string[]>;
  opened?: string[];
}

/** A domain offering plain tools (and optionally resources and prompts) under the given names. */
function toolsDomain(name: string, tools: string[], options: ToolsDomainOptions = {}): Domain<ToolsConfig> {
  return defineDomain({
    name,
    version: '0.0.0',
    title: name,
    instructions: `The ${name} test domain.`,
    toolPrefix: options.prefix ?? name,
    config: () => ({}),
    open: () => {
      options.opened?.push(name);
      return { async close() {} };
    },
    tools: [
      ...tools.map((tool) => namedTool(name, tool)),
      ...(options.writes ?? []).map((tool) => namedTool(name, tool, false)),
    ],
    resources: (options.resources ?? []).map((uriTemplate) =>
      resource({
        name: `${name}-${uriTemplate}`,
        uriTemplate,
        title: uriTemplate,
        description: `A resource of ${name}.`,
        read: async (uri) => [{ uri, text: name }],
        errorPayload: (error) => ({ error: { code: 'ERROR', message: error.message } }),
      }),
    ),
    prompts: Object.entries(options.prompts ?? {}).map(([promptName, uses]) =>
      prompt({
        name: promptName,
        title: promptName,
        description: `A prompt of ${name}.`,
        arguments: [],
        tools: uses,
        when: (config) => config.offered?.includes(promptName) ?? true,
        get: async () => [{ role: 'user', content: { type: 'text', text: name } }],
        errorPayload: (error) => ({ error: { code: 'ERROR', message: error.message } }),
      }),
    ),
  });
}

const mountOf = (domain: Domain<ToolsConfig>, config: ToolsConfig = {}) =>
  ({ domain, config }) as Mount<unknown, DomainLifecycle>;

/** The names `tools/list` shows a real client, sorted. */
async function listedTools(domains: Domain<ToolsConfig>[], options: CatalogOptions = {}) {
  const connection = await connectInMemory(
    domains.map((domain) => mountOf(domain)),
    options,
  );
  try {
    const { tools } = await connection.client.listTools();
    return tools.map((tool) => tool.name).sort();
  } finally {
    await connection.close();
  }
}

/** The catalog's names without a server: what a start decides before opening anything. */
function catalogNames(domains: Domain<ToolsConfig>[], options: CatalogOptions = {}) {
  return [
    ...buildCatalog(
      domains.map((domain) => mountOf(domain)),
      options,
    ).tools.keys(),
  ].sort();
}

describe('prefixedName', () => {
  it('prefixes a name unless it already contains the prefix as a word', () => {
    expect(prefixedName('record_session', 'journey')).toBe('journey_record_session');
    expect(prefixedName('get_or_create_journey', 'journey')).toBe('get_or_create_journey');
    expect(prefixedName('launch_start_run', 'launch')).toBe('launch_start_run');
    expect(prefixedName('planJourney', 'journey')).toBe('planJourney');
    expect(prefixedName('plan.journey-v2', 'journey')).toBe('plan.journey-v2');
    // A word, not a substring: "journeys" and "launcher" do not carry the prefix.
    expect(prefixedName('list_journeys', 'journey')).toBe('journey_list_journeys');
    expect(prefixedName('launcher_status', 'launch')).toBe('launch_launcher_status');
    expect(prefixedName('planJourney', 'transit')).toBe('transit_planJourney');
  });
});

describe('the catalog', () => {
  it('shows a real client the prefixed names, leaving names that carry the prefix as they are', async () => {
    const names = await listedTools(
      [
        toolsDomain('journey-continuity', ['record_session', 'get_or_create_journey'], { prefix: 'journey' }),
        toolsDomain('transit', ['planJourney', 'transit_stops']),
      ],
      { toolPrefix: true },
    );
    expect(names).toEqual([
      'get_or_create_journey',
      'journey_record_session',
      'transit_planJourney',
      'transit_stops',
    ]);
    // Without the option, every name is the contract's.
    expect(
      catalogNames([toolsDomain('journey-continuity', ['record_session'], { prefix: 'journey' })]),
    ).toEqual(['record_session']);
  });

  it('calls the prefixed tool of the right domain', async () => {
    const connection = await connectInMemory(
      [mountOf(toolsDomain('transit', ['lookup'])), mountOf(toolsDomain('other', ['lookup']))],
      { toolPrefix: true },
    );
    try {
      const result = await connection.client.callTool({ name: 'other_lookup', arguments: {} });
      expect(result.structuredContent).toEqual({ from: 'other:lookup' });
      const unprefixed = await connection.client.callTool({ name: 'lookup', arguments: {} }).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      expect(unprefixed).toMatch(/Unknown tool "lookup"/);
    } finally {
      await connection.close();
    }
  });

  it("refuses at start a name that breaks the spec's rule ^[A-Za-z0-9_.-]{1,128}$, with or without the prefix", async () => {
    const fits = 'a'.repeat(128 - 'transit_'.length);
    expect(catalogNames([toolsDomain('transit', [fits])], { toolPrefix: true })).toEqual([`transit_${fits}`]);
    const tooLongWhenPrefixed = `${fits}b`;
    expect(catalogNames([toolsDomain('transit', [tooLongWhenPrefixed])])).toEqual([tooLongWhenPrefixed]);
    expect(() => catalogNames([toolsDomain('transit', [tooLongWhenPrefixed])], { toolPrefix: true })).toThrow(
      /Tool name "transit_a+b" of domain "transit" breaks MCP's rule/,
    );
    for (const bad of ['z'.repeat(129), 'has space', 'slash/name', 'ümlaut', '']) {
      expect(() => catalogNames([toolsDomain('x', [bad])]), JSON.stringify(bad)).toThrow(/breaks MCP's rule/);
    }
    // Refused before anything opens: through the harness and through runServer alike.
    const opened: string[] = [];
    await expect(connectInMemory([mountOf(toolsDomain('x', ['has space'], { opened }))])).rejects.toThrow(
      /breaks MCP's rule/,
    );
    await expect(
      runServer([mountOf(toolsDomain('x', ['has space'], { opened }))], {
        name: 't',
        version: '0',
        handleSignals: false,
        logger: memoryLogger().logger,
        dataDir: tempDir(),
        env: {},
      }),
    ).rejects.toThrow(/breaks MCP's rule/);
    expect(opened).toEqual([]);
  });

  it('names both domains when two offer the same tool, resource template or prompt, before opening either', () => {
    const opened: string[] = [];
    const pair = (offers: ToolsDomainOptions) => [
      toolsDomain('transit', [], { ...offers, opened }),
      toolsDomain('journey-continuity', [], { ...offers, prefix: 'journey', opened }),
    ];
    expect(() => catalogNames(pair({ writes: ['search'] }))).toThrow(
      'tool name collision: "search" is offered by both "transit" and "journey-continuity". ' +
        'Use --tool-prefix, or hide one of them with --tools-deny.',
    );
    expect(() => catalogNames(pair({ resources: ['shared://doc'] }))).toThrow(
      /resource name collision: "shared:\/\/doc" is offered by both "transit" and "journey-continuity"/,
    );
    expect(() => catalogNames(pair({ prompts: { summarize: [] } }))).toThrow(
      /prompt name collision: "summarize" is offered by both "transit" and "journey-continuity"/,
    );
    expect(() => catalogNames([toolsDomain('transit', ['a']), toolsDomain('transit', ['b'])])).toThrow(
      'domain "transit" is mounted twice',
    );
    expect(opened).toEqual([]);
  });

  it('resolves a collision with the prefix, or by denying one side', async () => {
    const domains = () => [
      toolsDomain('transit', ['search']),
      toolsDomain('journey-continuity', ['search'], { prefix: 'journey' }),
    ];
    await expect(listedTools(domains(), { toolPrefix: true })).resolves.toEqual([
      'journey_search',
      'transit_search',
    ]);
    await expect(listedTools(domains(), { toolPrefix: true, toolsDeny: ['journey_*'] })).resolves.toEqual([
      'transit_search',
    ]);
    // Without a prefix, a denied twin is not in the catalog, so there is nothing to collide with.
    await expect(
      listedTools(
        [
          toolsDomain('transit', ['search']),
          toolsDomain('journey-continuity', ['search', 'other'], { prefix: 'journey' }),
        ],
        { toolsDeny: ['search'], toolsAllow: ['*'] },
      ),
    ).resolves.toEqual(['other']);
  });

  it('applies allow and deny to the original or the prefixed name, with * globs, deny winning', () => {
    const domains = () => [
      toolsDomain('transit', ['planJourney', 'get_departures', 'plan_trip']),
      toolsDomain('launch-runs', ['launch_start', 'launch_status'], { prefix: 'launch' }),
    ];
    // Allow by original name.
    expect(catalogNames(domains(), { toolPrefix: true, toolsAllow: ['planJourney'] })).toEqual([
      'transit_planJourney',
    ]);
    // Allow by prefixed name with a glob.
    expect(catalogNames(domains(), { toolPrefix: true, toolsAllow: ['transit_plan*'] })).toEqual([
      'transit_planJourney',
      'transit_plan_trip',
    ]);
    // Deny by original name with a glob; deny wins over allow.
    expect(
      catalogNames(domains(), { toolPrefix: true, toolsAllow: ['*'], toolsDeny: ['plan*', 'launch_status'] }),
    ).toEqual(['launch_start', 'transit_get_departures']);
    // Glob characters other than * are literal.
    expect(catalogNames(domains(), { toolsAllow: ['plan.trip'] })).toEqual([]);
    expect(catalogNames(domains(), { toolsAllow: ['plan?trip'] })).toEqual([]);
  });

  it('with readOnly, shows only tools annotated read-only', async () => {
    const domain = toolsDomain('launch-runs', ['launch_status'], {
      prefix: 'launch',
      writes: ['launch_start'],
    });
    await expect(listedTools([domain])).resolves.toEqual(['launch_start', 'launch_status']);
    await expect(listedTools([domain], { readOnly: true })).resolves.toEqual(['launch_status']);
    const connection = await connectInMemory([mountOf(domain)], { readOnly: true });
    try {
      await expect(connection.client.callTool({ name: 'launch_start', arguments: {} })).rejects.toThrow(
        /Unknown tool "launch_start"/,
      );
    } finally {
      await connection.close();
    }
  });

  it('offers the tools a configuration chooses with `when`, before any filter', () => {
    const domain = toolsDomain('launch-runs', ['launch_status', 'launch_start'], { prefix: 'launch' });
    const names = (config: ToolsConfig) => [...buildCatalog([mountOf(domain, config)], {}).tools.keys()];
    expect(names({})).toEqual(['launch_status', 'launch_start']);
    expect(names({ offered: ['launch_status'] })).toEqual(['launch_status']);
    // A tool the configuration does not offer cannot collide either.
    const twin = toolsDomain('other', ['launch_start']);
    expect(() =>
      buildCatalog([mountOf(domain, { offered: ['launch_status'] }), mountOf(twin)], {}),
    ).not.toThrow();
  });

  it('offers the prompts a configuration chooses with `when`', () => {
    const domain = toolsDomain('transit', [], { prompts: { commute: [], recap: [] } });
    const prompts = (config: ToolsConfig) =>
      buildCatalog([mountOf(domain, config)], {})
        .domains.get('transit')
        ?.prompts.map((p) => p.name);
    expect(prompts({})).toEqual(['commute', 'recap']);
    expect(prompts({ offered: ['recap'] })).toEqual(['recap']);
  });

  it('offers a prompt only while every tool it tells the model to call is listed', () => {
    const domain = toolsDomain('launch-runs', ['launch_status'], {
      prefix: 'launch',
      writes: ['start'],
      prompts: { launch_docs: ['start', 'launch_status'], launch_report: ['launch_status'], launch_help: [] },
    });
    const prompts = (options: CatalogOptions) =>
      buildCatalog([mountOf(domain)], options)
        .domains.get('launch-runs')
        ?.prompts.map((p) => p.name);
    expect(prompts({})).toEqual(['launch_docs', 'launch_report', 'launch_help']);
    expect(prompts({ readOnly: true })).toEqual(['launch_report', 'launch_help']);
    expect(prompts({ toolsDeny: ['launch_status'] })).toEqual(['launch_help']);
    expect(prompts({ toolsAllow: ['launch_status'] })).toEqual(['launch_report', 'launch_help']);
    // The prompt names its tools as the domain does: a prefix changes what is listed, not what it uses.
    expect(prompts({ toolPrefix: true })).toEqual(['launch_docs', 'launch_report', 'launch_help']);
    expect(prompts({ toolPrefix: true, toolsDeny: ['launch_start'] })).toEqual([
      'launch_report',
      'launch_help',
    ]);
  });

  it('refuses a prompt that names a tool its domain does not declare, before anything is opened', () => {
    const opened: string[] = [];
    const domain = toolsDomain('transit', ['plan_trip'], { prompts: { commute: ['plan_trp'] }, opened });
    expect(() => buildCatalog([mountOf(domain)], {})).toThrow(
      'Prompt "commute" of domain "transit" uses the tool "plan_trp", which the domain does not declare',
    );
    expect(opened).toEqual([]);
  });

  it("lists no icon beside the tools: the domain's icon is its server's, an escaped data: URI", () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8">\n  <path d="M1 1h6" stroke="#086"/>\n</svg>';
    const drawn: Domain<ToolsConfig> = { ...toolsDomain('drawn', ['b', 'c']), icon: svg };
    const listing = buildCatalog([mountOf(drawn)], {}).listing;
    expect(listing.map((t) => t.icons)).toEqual([undefined, undefined]);
    const icon = svgIcon(svg);
    expect(icon).toEqual({
      src:
        "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%208%208'%3E%20" +
        "%3Cpath%20d='M1%201h6'%20stroke='%23086'/%3E%20%3C/svg%3E",
    });
    expect(() => new URL(icon.src)).not.toThrow();
  });
});

describe('opening mounted domains', () => {
  it('gives each domain its own logger, the data directory and the environment, once, in mount order', async () => {
    const seen: { name: string; dataDir: string; env: unknown }[] = [];
    const { logger, lines } = memoryLogger();
    const observing = (name: string) =>
      defineDomain({
        ...toolsDomain(name, []),
        open: (_config, runtime) => {
          runtime.logger.info('opened');
          seen.push({ name, dataDir: runtime.dataDir, env: runtime.env });
          return { async close() {} };
        },
      });
    const connection = await connectInMemory(
      [mountOf(observing('transit')), mountOf(observing('launch-runs'))],
      {
        logger,
        dataDir: '/data/here',
        env: { SOME_SETTING: '1' },
      },
    );
    await connection.client.listTools();
    await connection.client.listTools();
    await connection.close();
    expect(seen).toEqual([
      { name: 'transit', dataDir: '/data/here', env: { SOME_SETTING: '1' } },
      { name: 'launch-runs', dataDir: '/data/here', env: { SOME_SETTING: '1' } },
    ]);
    const opened = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((e) => e.msg === 'opened');
    expect(opened.map((entry) => entry.domain)).toEqual(['transit', 'launch-runs']);
  });

  it('closes the domains already open when a later one fails to open, and names it', async () => {
    const closed: string[] = [];
    const closing = (name: string) =>
      defineDomain({
        ...toolsDomain(name, []),
        open: () => ({
          async close() {
            closed.push(name);
          },
        }),
      });
    const failing = defineDomain({
      ...toolsDomain('broken', []),
      open: () => {
        throw new Error('BROKEN_KEY is required');
      },
    });
    await expect(
      connectInMemory([mountOf(closing('first')), mountOf(failing), mountOf(closing('never'))]),
    ).rejects.toThrow('cannot open broken: BROKEN_KEY is required');
    expect(closed).toEqual(['first']);
  });
});
