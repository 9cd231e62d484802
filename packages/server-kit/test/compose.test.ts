import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectInMemory } from '../src/testing.js';
import { createMcpServer, domainPrefix, MAX_TOOL_NAME_LENGTH, type DomainModule } from '../src/index.js';
import { memoryLogger } from './helpers.js';

/** A module that registers plain tools (and optionally a resource) under the given names. */
function toolsModule(name: string, tools: string[], resources: string[] = []): DomainModule {
  return {
    name,
    version: '0.0.0',
    register(server) {
      for (const tool of tools) {
        server.registerTool(tool, { description: `${tool} of ${name}`, inputSchema: z.object({}) }, () => ({
          content: [{ type: 'text', text: `${name}:${tool}` }],
        }));
      }
      for (const uri of resources) {
        server.registerResource(`${name}-${uri}`, uri, {}, () => ({ contents: [{ uri, text: name }] }));
      }
    },
    async close() {},
  };
}

async function listedTools(modules: DomainModule[], options: Parameters<typeof connectInMemory>[1] = {}) {
  const connection = await connectInMemory(modules, options);
  try {
    const { tools } = await connection.client.listTools();
    return tools.map((tool) => tool.name).sort();
  } finally {
    await connection.close();
  }
}

const { logger } = memoryLogger();
const base = { name: 'combined', version: '0.0.0', logger, dataDir: '/nonexistent' };

describe('createMcpServer composition', () => {
  it('prefixes tools with their domain prefix unless they already carry it', async () => {
    expect(domainPrefix('launch-runs')).toBe('launch');
    expect(domainPrefix('journey-continuity')).toBe('journey');
    expect(domainPrefix('my-domain.v2')).toBe('my_domain_v2');
    const names = await listedTools(
      [
        toolsModule('transit', ['planJourney', 'transit_stops']),
        toolsModule('launch-runs', ['launch_start']),
      ],
      { toolPrefix: true },
    );
    expect(names).toEqual(['launch_start', 'transit_planJourney', 'transit_stops']);
  });

  it('calls the prefixed tool of the right domain', async () => {
    const connection = await connectInMemory(
      [toolsModule('transit', ['lookup']), toolsModule('other', ['lookup'])],
      {
        toolPrefix: true,
      },
    );
    try {
      const result = await connection.client.callTool({ name: 'other_lookup', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'other:lookup' }]);
    } finally {
      await connection.close();
    }
  });

  it('refuses a tool whose exposed name would exceed 64 characters, with or without the prefix', async () => {
    const fits = 'a'.repeat(MAX_TOOL_NAME_LENGTH - 'transit_'.length);
    await expect(listedTools([toolsModule('transit', [fits])], { toolPrefix: true })).resolves.toEqual([
      `transit_${fits}`,
    ]);
    const tooLongWhenPrefixed = `${fits}b`;
    await expect(listedTools([toolsModule('transit', [tooLongWhenPrefixed])])).resolves.toHaveLength(1);
    await expect(
      createMcpServer([toolsModule('transit', [tooLongWhenPrefixed])], { ...base, toolPrefix: true }),
    ).rejects.toThrow(/transit_a+b" of domain "transit" is longer than 64 characters/);
    await expect(createMcpServer([toolsModule('x', ['z'.repeat(65)])], base)).rejects.toThrow(
      /longer than 64/,
    );
  });

  it('names both domains when two register the same tool name', async () => {
    await expect(
      createMcpServer(
        [toolsModule('transit', ['search']), toolsModule('journey-continuity', ['search'])],
        base,
      ),
    ).rejects.toThrow(
      /tool name collision: "search" is registered by both "transit" and "journey-continuity"/,
    );
  });

  it('names both domains when two register the same resource URI', async () => {
    await expect(
      createMcpServer(
        [toolsModule('alpha', [], ['shared://doc']), toolsModule('beta', [], ['shared://doc'])],
        base,
      ),
    ).rejects.toThrow(/resource name collision: "shared:\/\/doc" is registered by both "alpha" and "beta"/);
  });

  it('resolves a collision with the prefix, or by denying one side', async () => {
    const modules = () => [toolsModule('transit', ['search']), toolsModule('journey-continuity', ['search'])];
    await expect(listedTools(modules(), { toolPrefix: true })).resolves.toEqual([
      'journey_search',
      'transit_search',
    ]);
    await expect(listedTools(modules(), { toolPrefix: true, toolsDeny: ['journey_*'] })).resolves.toEqual([
      'transit_search',
    ]);
    // Without a prefix, the denied twin never reaches the server, so there is nothing to collide with.
    const connection = await connectInMemory(
      [toolsModule('transit', ['search']), toolsModule('journey-continuity', ['search', 'other'])],
      { toolsDeny: ['search'], toolsAllow: ['*'] },
    );
    try {
      const { tools } = await connection.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['other']);
    } finally {
      await connection.close();
    }
  });

  it('applies allow and deny to the original or the prefixed name, with * globs, deny winning', async () => {
    const modules = () => [
      toolsModule('transit', ['planJourney', 'get_departures', 'plan_trip']),
      toolsModule('launch-runs', ['launch_start', 'launch_status']),
    ];
    // Allow by original name.
    await expect(listedTools(modules(), { toolPrefix: true, toolsAllow: ['planJourney'] })).resolves.toEqual([
      'transit_planJourney',
    ]);
    // Allow by prefixed name with a glob.
    await expect(
      listedTools(modules(), { toolPrefix: true, toolsAllow: ['transit_plan*'] }),
    ).resolves.toEqual(['transit_planJourney', 'transit_plan_trip']);
    // Deny by original name with a glob; deny wins over allow.
    await expect(
      listedTools(modules(), { toolPrefix: true, toolsAllow: ['*'], toolsDeny: ['plan*', 'launch_status'] }),
    ).resolves.toEqual(['launch_start', 'transit_get_departures']);
    // Glob characters other than * are literal.
    await expect(listedTools(modules(), { toolsAllow: ['plan.trip'] })).resolves.toEqual([]);
    await expect(listedTools(modules(), { toolsAllow: ['plan?trip'] })).resolves.toEqual([]);
  });

  it('gives a hidden tool a working handle so its domain can still manage it', async () => {
    const handles: unknown[] = [];
    const module: DomainModule = {
      name: 'transit',
      version: '0.0.0',
      register(server) {
        const tool = server.registerTool('secret_tool', { description: 'hidden' }, () => ({ content: [] }));
        tool.disable();
        handles.push(tool);
      },
      async close() {},
    };
    await expect(listedTools([module], { toolsDeny: ['secret_tool'] })).resolves.toEqual([]);
    expect(handles).toHaveLength(1);
  });

  it('gives each domain its own logger and the data directory', async () => {
    const seen: { dataDir: string; strictOutput: boolean }[] = [];
    const { logger: log, lines } = memoryLogger();
    const module: DomainModule = {
      name: 'transit',
      version: '0.0.0',
      register(_server, ctx) {
        ctx.logger.info('registered');
        seen.push({ dataDir: ctx.dataDir, strictOutput: ctx.strictOutput });
      },
      async close() {},
    };
    await createMcpServer([module], { ...base, logger: log, dataDir: '/data/here', strictOutput: true });
    expect(seen).toEqual([{ dataDir: '/data/here', strictOutput: true }]);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'registered', domain: 'transit' });
  });
});
