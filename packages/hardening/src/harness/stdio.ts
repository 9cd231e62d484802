import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
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

/** The `switchyard` bin over stdio (what an MCP client spawns), with the defect detector preloaded. */
export async function spawnSwitchyardStdio(env: Record<string, string>): Promise<StdioSwitchyard> {
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
  const client = new Client({ name: 'switchyard-hardening-stdio', version: '0.0.0' });
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
