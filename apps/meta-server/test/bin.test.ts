import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawHttpRequest } from '@switchyard/server-kit/testing';
import {
  ALL_TOOLS,
  BIN,
  connectHttp,
  connectStdio,
  DUMMY_KEYS,
  expectCompleteListing,
  INITIALIZE_REQUEST,
  JOURNEY_TOOLS,
  LAUNCH_TOOLS,
  spawnHttpServer,
  tempDir,
} from './helpers.js';

describe('the built switchyard bin', () => {
  it('over stdio lists every tool of every domain once, complete, and keeps stdout for the protocol', async () => {
    const dataDir = tempDir();
    const connection = await connectStdio({ ...DUMMY_KEYS, SWITCHYARD_DATA_DIR: dataDir });
    try {
      const { tools } = await connection.client.listTools();
      expectCompleteListing(tools, ALL_TOOLS);
      expect(connection.client.getServerVersion()).toMatchObject({
        name: 'switchyard',
        title: 'Switchyard',
        websiteUrl: 'https://github.com/switchyard-mcp/switchyard#readme',
        icons: [{ src: expect.stringMatching(/^data:image\/svg\+xml,%3Csvg%20/) }],
      });
      // The server has its icon; no tool repeats one (that was a tenth of the listing).
      expect(tools.every((tool) => tool.icons === undefined)).toBe(true);
      // One paragraph per mounted domain, in its own words.
      const instructions = connection.client.getInstructions() ?? '';
      for (const title of [
        'London and Helsinki transit',
        'Documentation launch runs',
        'Journey continuity',
      ]) {
        expect(instructions).toContain(title);
      }

      const journey = await connection.client.callTool({ name: 'get_or_create_journey', arguments: {} });
      expect(journey.isError).not.toBe(true);
      expect(journey.structuredContent).toMatchObject({ is_new: true, session_count: 0 });
    } finally {
      await connection.close();
    }
    // One data directory, one database per domain.
    expect(
      fs
        .readdirSync(dataDir)
        .filter((name) => name.endsWith('.sqlite'))
        .sort(),
    ).toEqual(['journey-continuity.sqlite', 'launch-runs.sqlite', 'transit.sqlite']);
    expect(connection.stderr()).toMatch(/mounted transit\s+providers tfl \(London\) and hsl \(Helsinki\)/);
  });

  it('without transit keys mounts journey-continuity and launch-runs and says why transit was skipped', async () => {
    const connection = await connectStdio({ SWITCHYARD_DATA_DIR: tempDir() });
    try {
      const { tools } = await connection.client.listTools();
      expectCompleteListing(tools, [...LAUNCH_TOOLS, ...JOURNEY_TOOLS]);
    } finally {
      await connection.close();
    }
    expect(connection.stderr()).toMatch(
      /skipped transit\s+neither TFL_API_KEY \(London\) nor DIGITRANSIT_SUBSCRIPTION_KEY \(Helsinki\) is set/,
    );
    expect(connection.stderr()).toMatch(/mounted launch-runs/);
    expect(connection.stderr()).toMatch(/mounted journey-continuity/);
  });

  it.each(['modern', 'legacy'] as const)(
    'without a key, a call to a tool that needs it (%s era) says which variable to set, and so do the instructions',
    async (era) => {
      const connection = await connectStdio({ SWITCHYARD_DATA_DIR: tempDir() }, [], era);
      try {
        const instructions = connection.client.getInstructions() ?? '';
        expect(instructions).toContain(
          '- transit is not mounted: neither TFL_API_KEY (London) nor DIGITRANSIT_SUBSCRIPTION_KEY (Helsinki) is set',
        );
        const failure = (name: string) =>
          connection.client.callTool({ name, arguments: {} }).then(
            () => 'answered',
            (error: Error) => error.message,
          );
        const planJourney = await failure('planJourney');
        expect(planJourney).toContain(
          'Tool "planJourney" is off in this server: its domain, transit, is not mounted',
        );
        expect(planJourney).toContain('the tool needs TFL_API_KEY (a free key from the TfL API portal');
        expect(planJourney).not.toContain('Unknown tool');
        expect(await failure('save_user_variable')).toContain('set one or both to add the transit tools');
        expect(await failure('no_such_tool')).toContain('Unknown tool "no_such_tool"');
        // The listing stays what is offered.
        expectCompleteListing((await connection.client.listTools()).tools, [
          ...LAUNCH_TOOLS,
          ...JOURNEY_TOOLS,
        ]);
      } finally {
        await connection.close();
      }

      const helsinkiOnly = await connectStdio(
        { SWITCHYARD_DATA_DIR: tempDir(), DIGITRANSIT_SUBSCRIPTION_KEY: 'demo-key' },
        [],
        era,
      );
      try {
        expect(helsinkiOnly.client.getInstructions()).toMatch(
          /- transit's planJourney, get_london_arrivals, get_line_status and find_london_stops: off, they need TFL_API_KEY/,
        );
        const message = await helsinkiOnly.client.callTool({ name: 'get_line_status', arguments: {} }).then(
          () => 'answered',
          (error: Error) => error.message,
        );
        expect(message).toContain('Tool "get_line_status" is off in this server: it needs TFL_API_KEY');
      } finally {
        await helsinkiOnly.close();
      }
    },
  );

  it('over HTTP lists every tool once, prints the URL and a client configuration, and answers health checks', async () => {
    const dataDir = tempDir();
    const server = await spawnHttpServer({ ...DUMMY_KEYS, SWITCHYARD_DATA_DIR: dataDir });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const printed = server.stderr();
      const snippetFor = (client: string): string =>
        new RegExp(`  ${client}, in [^\\n]*:\\n    ([^\\n]+)\\n`).exec(printed)?.[1] ?? '';
      expect(snippetFor('Claude Code')).toBe(`claude mcp add --transport http switchyard ${server.url}`);
      expect(JSON.parse(snippetFor('Cursor'))).toEqual({ mcpServers: { switchyard: { url: server.url } } });
      expect(JSON.parse(snippetFor('VS Code'))).toEqual({
        servers: { switchyard: { type: 'http', url: server.url } },
      });
      // Claude Desktop starts servers itself over stdio: the same bin, with the same Node.
      expect(JSON.parse(snippetFor('Claude Desktop'))).toEqual({
        mcpServers: { switchyard: { command: process.execPath, args: [BIN] } },
      });

      const client = await connectHttp(server.url);
      try {
        const { tools } = await client.listTools();
        expectCompleteListing(tools, ALL_TOOLS);
        const saved = await client.callTool({
          name: 'save_user_variable',
          arguments: { key: 'home', value: { type: 'location', lat: 60.1699, lon: 24.9384 } },
        });
        expect(saved.isError).not.toBe(true);
      } finally {
        await client.close();
      }

      // Stateless in both eras: the 2025 handshake is answered without a session, and there is no GET stream.
      const initialized = await rawHttpRequest(server.url, INITIALIZE_REQUEST);
      expect(initialized.status).toBe(200);
      expect(initialized.headers['mcp-session-id']).toBeUndefined();
      const stream = await rawHttpRequest(server.url, { headers: { accept: 'text/event-stream' } });
      expect(stream.status).toBe(405);

      const origin = new URL(server.url).origin;
      const healthz = await rawHttpRequest(`${origin}/healthz`);
      expect(healthz.status).toBe(200);
      const readyz = await rawHttpRequest(`${origin}/readyz`);
      expect({ status: readyz.status, body: JSON.parse(readyz.body) as unknown }).toEqual({
        status: 200,
        body: { status: 'ready' },
      });
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(fs.existsSync(path.join(dataDir, 'transit.sqlite'))).toBe(true);
  });
});
