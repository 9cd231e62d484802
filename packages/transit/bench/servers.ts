// The servers the benchmark and the profiler call: a script over stdio, or the bin with --http, each with a
// connected client of one protocol era and the process to read CPU from.
import { spawn, type ChildProcess } from 'node:child_process';
import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientFor, type ProtocolEra } from '@switchyard/server-kit/testing';

export interface Server {
  label: string;
  client: Client;
  pid: number;
  /** Closes the client and lets the server exit (writing its profile, when it runs under --cpu-prof). */
  close(): Promise<void>;
}

/** How to start a server: Node's own arguments first (a profiler's), then the script and its arguments. */
export interface ServerStart {
  label: string;
  transport: 'stdio' | 'http';
  args: string[];
  env: Record<string, string>;
  era: ProtocolEra;
}

export function startServer(start: ServerStart, nodeArgs: string[] = []): Promise<Server> {
  return start.transport === 'stdio' ? stdioServer(start, nodeArgs) : httpServer(start, nodeArgs);
}

async function stdioServer({ label, args, env, era }: ServerStart, nodeArgs: string[]): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, ...args],
    env,
    stderr: 'inherit',
  });
  const client = clientFor(era, `bench-${label}`);
  await client.connect(transport);
  return { label, client, pid: transport.pid!, close: () => client.close() };
}

/** The script with --http on a free port; its "listening" log line names the URL. */
async function httpServer({ label, args, env, era }: ServerStart, nodeArgs: string[]): Promise<Server> {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...args, '--http', '--port', '0'], {
    env: { ...env, SWITCHYARD_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      const found = /"url":"(http:\/\/127\.0\.0\.1:\d+\/mcp)"/.exec(log);
      if (found !== null) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${label} exited (${String(code)}):\n${log}`)));
  });
  const client = clientFor(era, `bench-${label}`);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    label,
    client,
    pid: child.pid!,
    async close() {
      await client.close();
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill();
      });
    },
  };
}
