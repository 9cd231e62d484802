import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawHttpRequest } from '@switchyard/server-kit/testing';
import {
  connectHttp,
  INITIALIZE_REQUEST,
  runBin,
  spawnHttpServer,
  tempDir,
  type SpawnedServer,
} from './helpers.js';

const TOKEN = 'test-token-0123456789abcdef-not-a-real-secret';

describe('switchyard --http with SWITCHYARD_TOKEN', () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await spawnHttpServer({ SWITCHYARD_DATA_DIR: tempDir(), SWITCHYARD_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers 401 to MCP requests without the token or with a wrong one', async () => {
    const missing = await rawHttpRequest(server.url, INITIALIZE_REQUEST);
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await rawHttpRequest(server.url, {
      ...INITIALIZE_REQUEST,
      headers: { ...INITIALIZE_REQUEST.headers, authorization: 'Bearer not-the-token-at-all-0000' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).not.toContain(TOKEN);
  });

  it('serves a client that sends the token', async () => {
    const client = await connectHttp(server.url, TOKEN);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('get_or_create_journey');
    } finally {
      await client.close();
    }
  });

  it('prints each client setup with the Authorization header masked, never the token', () => {
    const printed = server.stderr();
    expect(printed).toContain('"Authorization":"Bearer <SWITCHYARD_TOKEN>"');
    expect(printed).toContain(`switchyard ${server.url} --header "Authorization: Bearer <SWITCHYARD_TOKEN>"`);
    expect(printed).toContain(
      `--server-url ${server.url} --header "Authorization: Bearer <SWITCHYARD_TOKEN>"`,
    );
    expect(printed).not.toContain(TOKEN);
  });

  it('refuses a foreign Host header (DNS rebinding) and a foreign Origin with 403', async () => {
    const port = new URL(server.url).port;
    const authorized = { ...INITIALIZE_REQUEST.headers, authorization: `Bearer ${TOKEN}` };
    const foreignHost = await rawHttpRequest(server.url, {
      ...INITIALIZE_REQUEST,
      headers: { ...authorized, host: `evil.example:${port}` },
    });
    expect(foreignHost.status).toBe(403);
    const foreignOrigin = await rawHttpRequest(server.url, {
      ...INITIALIZE_REQUEST,
      headers: { ...authorized, origin: 'https://evil.example' },
    });
    expect(foreignOrigin.status).toBe(403);
    const ownOrigin = await rawHttpRequest(server.url, {
      ...INITIALIZE_REQUEST,
      headers: { ...authorized, origin: new URL(server.url).origin },
    });
    expect(ownOrigin.status).toBe(200);
  });
});

describe('switchyard refusing to start', () => {
  it('refuses a non-loopback interface without SWITCHYARD_TOKEN, saying what to set', async () => {
    const result = await runBin(['--http', '--host', '0.0.0.0', '--port', '0'], {
      SWITCHYARD_DATA_DIR: tempDir(),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refusing to listen on 0\.0\.0\.0 without a token/);
    expect(result.stderr).toContain('SWITCHYARD_TOKEN');
  });

  it('listens on a non-loopback interface when a token is set, and still wants it', async () => {
    const server = await spawnHttpServer({ SWITCHYARD_DATA_DIR: tempDir(), SWITCHYARD_TOKEN: TOKEN }, [
      '--host',
      '0.0.0.0',
    ]);
    try {
      const url = server.url.replace('0.0.0.0', '127.0.0.1');
      const missing = await rawHttpRequest(url, INITIALIZE_REQUEST);
      expect(missing.status).toBe(401);
      const client = await connectHttp(url, TOKEN);
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it('fails the start naming the missing key when transit is named in --domains', async () => {
    const result = await runBin(['--domains', 'transit,journey'], {
      SWITCHYARD_DATA_DIR: tempDir(),
      TFL_API_KEY: 'dummy-tfl-key-for-tests',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot mount transit: DIGITRANSIT_SUBSCRIPTION_KEY: is required/);
  });

  it('names the flag to change when the port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const result = await runBin(['--http', '--port', String(port)], { SWITCHYARD_DATA_DIR: tempDir() });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`port ${port} is already in use (set another --port (SWITCHYARD_PORT)`);
    } finally {
      blocker.close();
    }
  });

  it('rejects a bad setting naming the variable, before opening anything', async () => {
    const dataDir = tempDir();
    const result = await runBin([], { SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SWITCHYARD_PORT must be a port number from 0 to 65535');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
