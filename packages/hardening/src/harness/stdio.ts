import type { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientFor, type ProtocolEra } from '@switchyard/server-kit/testing';
import { defaultEra } from '../profile.js';
import { DETECTOR, switchyardBin } from './paths.js';

export interface StdioSwitchyard {
  /** A real SDK client over the process's stdin/stdout. */
  client: Client;
  /** Every complete stderr line so far. */
  lines(): string[];
  /** Whether the process is still serving (its stdout has not closed). */
  alive(): boolean;
  /** Closes stdin (the server shuts down) and waits for the process to end. */
  close(): Promise<void>;
}

/**
 * The `switchyard` bin over stdio (what an MCP client spawns), with the defect detector preloaded. In the
 * modern era the SDK first asks a short-lived sibling process for `server/discover`; the lines here are
 * those of the process that serves the calls.
 */
export async function spawnSwitchyardStdio(
  env: Record<string, string>,
  era: ProtocolEra = defaultEra(),
): Promise<StdioSwitchyard> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', DETECTOR, switchyardBin()],
    env: { ...getDefaultEnvironment(), SWITCHYARD_LOG_LEVEL: 'debug', ...env },
    stderr: 'pipe',
  });
  const lines: string[] = [];
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  let closed = false;
  const client = clientFor(era, 'switchyard-hardening-stdio');
  client.onclose = () => {
    closed = true;
  };
  client.onerror = () => {};
  await client.connect(transport);
  return {
    client,
    lines: () => (partial === '' ? [...lines] : [...lines, partial]),
    alive: () => !closed,
    close: () => client.close(),
  };
}
