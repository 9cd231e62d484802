import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { DomainModule } from '@switchyard/server-kit';
import { createLogger } from '@switchyard/server-kit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startSwitchyard, type RunningSwitchyard, type SwitchyardOptions } from '../src/index.js';
import {
  ALL_TOOLS,
  connectHttp,
  DUMMY_KEYS,
  JOURNEY_TOOLS,
  LAUNCH_TOOLS,
  TRANSIT_TOOLS,
  tempDir,
} from './helpers.js';

const quiet = createLogger({ level: 'error' });

function start(options: SwitchyardOptions): Promise<RunningSwitchyard> {
  return startSwitchyard({
    transport: 'http',
    port: 0,
    env: DUMMY_KEYS,
    dataDir: tempDir(),
    logger: quiet,
    handleSignals: false,
    announce: () => {},
    ...options,
  });
}

async function listedTools(running: RunningSwitchyard): Promise<string[]> {
  const client = await connectHttp(running.url ?? '');
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

/** A domain of our own that registers one tool under `toolName`. */
function fakeDomain(name: string, toolName: string): DomainModule & { closed: boolean } {
  return {
    name,
    version: '0.0.0',
    closed: false,
    register(server: McpServer) {
      server.registerTool(toolName, { description: 'test tool', inputSchema: { text: z.string() } }, () => ({
        content: [{ type: 'text', text: 'ok' }],
      }));
    },
    async close() {
      this.closed = true;
    },
  };
}

describe('composition through the combined server', () => {
  it('prefixes every tool with its domain and keeps every name within 64 characters', async () => {
    const running = await start({ toolPrefix: true });
    try {
      const names = await listedTools(running);
      expect(names.sort()).toEqual(
        [
          ...TRANSIT_TOOLS.map((name) => `transit_${name}`),
          // launch_* tools already carry their prefix.
          ...LAUNCH_TOOLS,
          ...JOURNEY_TOOLS.map((name) => `journey_${name}`),
        ].sort(),
      );
      for (const name of names) expect(name.length).toBeLessThanOrEqual(64);
    } finally {
      await running.close();
    }
  });

  it('shows only the allowed tools, minus the denied ones (deny wins)', async () => {
    const running = await start({
      toolsAllow: ['launch_*', 'get_*'],
      toolsDeny: ['launch_cancel', 'get_user_*'],
    });
    try {
      expect((await listedTools(running)).sort()).toEqual(
        [
          ...LAUNCH_TOOLS.filter((name) => name !== 'launch_cancel'),
          'get_departures',
          'get_or_create_journey',
        ].sort(),
      );
    } finally {
      await running.close();
    }
  });

  it('matches allow and deny against prefixed names too', async () => {
    const running = await start({ toolPrefix: true, toolsDeny: ['journey_*'] });
    try {
      const names = await listedTools(running);
      expect(names).toHaveLength(ALL_TOOLS.length - JOURNEY_TOOLS.length);
      expect(names.some((name) => name.startsWith('journey_'))).toBe(false);
    } finally {
      await running.close();
    }
  });

  it('refuses to start on a tool name collision, naming both domains, and closes what it opened', async () => {
    const intruder = fakeDomain('weather', 'get_or_create_journey');
    const promise = start({ extraModules: [intruder] });
    await expect(promise).rejects.toThrow(
      'tool name collision: "get_or_create_journey" is registered by both "journey-continuity" and "weather"',
    );
    expect(intruder.closed).toBe(true);
  });

  it('lets a prefix resolve that collision', async () => {
    const running = await start({
      toolPrefix: true,
      extraModules: [fakeDomain('weather', 'get_or_create_journey')],
    });
    try {
      const names = await listedTools(running);
      expect(names).toContain('journey_get_or_create_journey');
      expect(names).toContain('weather_get_or_create_journey');
    } finally {
      await running.close();
    }
  });

  it('closes every module in order on shutdown, and /readyz covers each of them', async () => {
    const running = await start({});
    const closed: string[] = [];
    for (const module of running.modules) {
      const close = module.close.bind(module);
      (module as { close: () => Promise<void> }).close = async () => {
        closed.push(module.name);
        await close();
      };
    }
    const origin = new URL(running.url ?? '').origin;
    expect(await (await fetch(`${origin}/readyz`)).json()).toEqual({ status: 'ready' });
    await running.close();
    expect(closed).toEqual(['transit', 'launch-runs', 'journey-continuity']);
    for (const module of running.modules) expect(await module.ready?.()).toBe(false);
  });
});
