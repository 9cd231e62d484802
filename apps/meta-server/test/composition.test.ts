import fs from 'node:fs';
import type { Client, Tool } from '@modelcontextprotocol/client';
import { defineDomain, specsFor, type DomainLifecycle } from '@switchyard/server-kit';
import { createLogger } from '@switchyard/server-kit/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startSwitchyard, type RunningSwitchyard, type SwitchyardOptions } from '../src/index.js';
import path from 'node:path';
import {
  ALL_TOOLS,
  connectHttp,
  DUMMY_KEYS,
  LAUNCH_TOOLS,
  REPO_ROOT,
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

async function withClient<T>(running: RunningSwitchyard, use: (client: Client) => Promise<T>): Promise<T> {
  const client = await connectHttp(running.url ?? '');
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

async function listedTools(running: RunningSwitchyard): Promise<Tool[]> {
  return withClient(running, async (client) => (await client.listTools()).tools);
}

const names = (tools: readonly Tool[]): string[] => tools.map((tool) => tool.name).sort();

/** A domain of our own offering one tool under `toolName`; `opened` says whether the server opened it. */
function fakeDomain(name: string, toolName: string) {
  const record = { opened: false, closed: false };
  const { tool } = specsFor<DomainLifecycle>();
  const domain = defineDomain({
    name,
    version: '0.0.0',
    title: `The ${name} test domain`,
    instructions: 'A test domain.',
    toolPrefix: name,
    config: () => undefined,
    open: () => {
      record.opened = true;
      return {
        async close() {
          record.closed = true;
        },
      };
    },
    tools: [
      tool({
        name: toolName,
        title: 'Test tool',
        description: 'Answers ok, for composition tests.',
        input: z.strictObject({ text: z.string().describe('Any text.') }),
        output: z.strictObject({ ok: z.boolean().describe('Always true.') }),
        annotations: { readOnlyHint: true, openWorldHint: false },
        errorPayload: (error) => ({ error: { code: error.kind, message: error.message } }),
        handler: () => ({ ok: true }),
      }),
    ],
  });
  return { mount: { domain, config: undefined }, record };
}

describe('composition through the combined server', () => {
  it('prefixes a tool only when its name lacks the domain word, and keeps every name within 64 characters', async () => {
    const running = await start({ toolPrefix: true });
    try {
      const listed = names(await listedTools(running));
      expect(listed).toEqual(
        [
          // No transit tool says "transit": every one is prefixed.
          ...TRANSIT_TOOLS.map((name) => `transit_${name}`),
          // launch_* tools already carry their word.
          ...LAUNCH_TOOLS,
          // Four journey tools have "journey" as a word of their name; record_session does not.
          'get_or_create_journey',
          'query_journey_history',
          'add_document_to_journey',
          'journey_record_session',
          'delete_journey',
        ].sort(),
      );
      for (const name of listed) expect(name.length).toBeLessThanOrEqual(64);
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
      expect(names(await listedTools(running))).toEqual(
        [
          ...LAUNCH_TOOLS.filter((name) => name !== 'launch_cancel'),
          'get_departures',
          'get_london_arrivals',
          'get_line_status',
          'get_or_create_journey',
        ].sort(),
      );
    } finally {
      await running.close();
    }
  });

  it('matches allow and deny against prefixed names too', async () => {
    const running = await start({ toolPrefix: true, toolsDeny: ['journey_*', 'transit_plan*'] });
    try {
      const listed = names(await listedTools(running));
      // journey_record_session is the one journey tool whose prefixed name starts with journey_.
      expect(listed).toHaveLength(ALL_TOOLS.length - 1 - 2);
      expect(listed).not.toContain('journey_record_session');
      expect(listed).not.toContain('transit_planJourney');
      expect(listed).not.toContain('transit_plan_trip');
      expect(listed).toContain('get_or_create_journey');
    } finally {
      await running.close();
    }
  });

  it('with --read-only lists exactly the tools annotated read-only, and a hidden tool is unknown', async () => {
    const everything = await start({});
    const allTools = await listedTools(everything).finally(() => everything.close());
    const readOnly = allTools.filter((tool) => tool.annotations?.readOnlyHint === true);
    expect(names(readOnly)).toEqual(
      [
        'planJourney',
        'get_london_arrivals',
        'get_line_status',
        'find_london_stops',
        'get_departures',
        'plan_trip',
        'find_stops',
        'get_user_variables',
        'launch_get_status',
        'launch_get_artifact',
        'launch_list_runs',
        'query_journey_history',
      ].sort(),
    );

    const running = await start({ readOnly: true });
    try {
      await withClient(running, async (client) => {
        expect(names((await client.listTools()).tools)).toEqual(names(readOnly));
        // Hidden means not callable: the same answer as a name that never existed.
        await expect(
          client.callTool({ name: 'get_or_create_journey', arguments: { user_id: 'u-1' } }),
        ).rejects.toThrow('Unknown tool "get_or_create_journey"');
        const read = await client.callTool({ name: 'launch_list_runs', arguments: {} });
        expect(read.isError).not.toBe(true);
      });
    } finally {
      await running.close();
    }
  });

  it('lists a prompt only while every tool it tells the model to call is listed', async () => {
    const promptsOf = async (options: SwitchyardOptions) => {
      const running = await start(options);
      try {
        return await withClient(running, async (client) => {
          const listed = (await client.listPrompts()).prompts.map((prompt) => prompt.name).sort();
          // An unlisted prompt cannot be got either.
          for (const name of ['commute', 'journey_recap', 'launch_docs', 'launch_write_docs'].filter(
            (n) => !listed.includes(n),
          )) {
            await expect(client.getPrompt({ name, arguments: {} })).rejects.toThrow(
              `Unknown prompt "${name}"`,
            );
          }
          return listed;
        });
      } finally {
        await running.close();
      }
    };
    expect(await promptsOf({})).toEqual(['commute', 'journey_recap', 'launch_docs', 'launch_write_docs']);
    // launch_docs starts a run, launch_write_docs submits drafts and journey_recap gets or creates a journey:
    // none of those tools is read-only.
    expect(await promptsOf({ readOnly: true })).toEqual(['commute']);
    expect(await promptsOf({ toolsDeny: ['plan_trip', 'launch_open_pr', 'launch_submit_draft'] })).toEqual([
      'journey_recap',
    ]);
  });

  it('refuses to start on a tool name collision, naming both domains, before opening anything', async () => {
    const intruder = fakeDomain('weather', 'get_or_create_journey');
    const dataDir = tempDir();
    const promise = start({ dataDir, extraDomains: [intruder.mount] });
    await expect(promise).rejects.toThrow(
      'tool name collision: "get_or_create_journey" is offered by both "journey-continuity" and "weather"',
    );
    expect(intruder.record.opened).toBe(false);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('lets a prefix resolve that collision, and serves the extra domain next to the built-in ones', async () => {
    const weather = fakeDomain('weather', 'get_or_create_journey');
    // journey-continuity's tool keeps its name (it has the word "journey"); weather's gets "weather_".
    const running = await start({ toolPrefix: true, extraDomains: [weather.mount] });
    try {
      const listed = names(await listedTools(running));
      expect(listed).toContain('get_or_create_journey');
      expect(listed).toContain('weather_get_or_create_journey');
      expect(running.domains.has('weather')).toBe(true);
      const answer = await withClient(running, (client) =>
        client.callTool({ name: 'weather_get_or_create_journey', arguments: { text: 'x' } }),
      );
      expect(answer.structuredContent).toEqual({ ok: true });
    } finally {
      await running.close();
    }
    expect(weather.record.closed).toBe(true);
  });

  it('closes every domain in order on shutdown, and /readyz covers each of them', async () => {
    const running = await start({});
    expect([...running.domains.keys()]).toEqual(['transit', 'launch-runs', 'journey-continuity']);
    const closed: string[] = [];
    for (const [name, state] of running.domains) {
      const close = state.close.bind(state);
      (state as { close: () => Promise<void> }).close = async () => {
        closed.push(name);
        await close();
      };
    }
    const origin = new URL(running.url ?? '').origin;
    expect(await (await fetch(`${origin}/readyz`)).json()).toEqual({ status: 'ready' });
    await running.close();
    expect(closed).toEqual(['transit', 'launch-runs', 'journey-continuity']);
    for (const state of running.domains.values()) expect(await state.ready?.()).toBe(false);
  });
});

/** The names quoted in `markdown` from the first line holding `start` up to the next line holding `end`. */
function quotedNames(markdown: string, start: string, end: string): string[] {
  const from = markdown.indexOf(start);
  expect(from, `the README has "${start}"`).toBeGreaterThanOrEqual(0);
  const text = markdown.slice(from, markdown.indexOf(end, from + start.length));
  return [...new Set([...text.matchAll(/`([A-Za-z][A-Za-z_]*)`/g)].map((match) => match[1] ?? ''))].sort();
}

/** The second column of the root README's "Servers and tools" table. */
function toolColumn(markdown: string): string {
  const from = markdown.indexOf('## Servers and tools');
  const rows = markdown.slice(from).split('\n').slice(2);
  const table = rows.slice(
    0,
    rows.findIndex((row, index) => index > 0 && !row.startsWith('|')),
  );
  return table.map((row) => row.split('|')[2] ?? '').join('\n');
}

describe('the READMEs name the tools the server lists', () => {
  const readme = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

  it("the root README's table has every tool, and the combined server's README every read-only and prefixed one", async () => {
    const everything = await start({});
    const allTools = await listedTools(everything).finally(() => everything.close());
    const prefixed = await start({ toolPrefix: true });
    const prefixedNames = names(await listedTools(prefixed).finally(() => prefixed.close()));

    const rootTable = toolColumn(readme('README.md'));
    expect(quotedNames(rootTable, '', 'every tool above')).toEqual(names(allTools));
    const meta = readme('apps/meta-server/README.md');
    const readOnly = allTools.filter((tool) => tool.annotations?.readOnlyHint === true);
    expect(quotedNames(meta, '**Read-only**', 'Resources (launch')).toEqual(names(readOnly));
    expect(quotedNames(meta, '| transit            | `transit_', '\n')).toEqual(
      prefixedNames.filter((name) => name.startsWith('transit_')),
    );
  });
});
