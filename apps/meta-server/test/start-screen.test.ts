import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cleanEnv, requireBuiltBin, runBin, spawnHttpServer, tempDir } from './helpers.js';

/** util-linux's `script` runs a command on a pseudo-terminal: the bin's stderr is then a terminal. */
function hasUtilLinuxScript(): boolean {
  try {
    return execFileSync('script', ['--version'], { encoding: 'utf8' }).includes('util-linux');
  } catch {
    return false;
  }
}

const quoted = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/** What `switchyard --http` prints on a terminal until it says how to stop it. */
function startScreenOnTerminal(env: Record<string, string>): Promise<string> {
  const command = [process.execPath, requireBuiltBin(), '--http', '--port', '0'].map(quoted).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: cleanEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let screen = '';
  return new Promise((resolve, reject) => {
    const stop = () => {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    };
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString('utf8');
      if (screen.includes('press Ctrl-C to stop')) {
        stop();
        resolve(screen);
      }
    });
    child.once('exit', () => reject(new Error(`switchyard stopped before serving:\n${screen}`)));
  });
}

/** Log lines written as JSON (the client snippets the screen prints are JSON too, indented: not these). */
const jsonLogLines = (text: string) => text.split(/\r?\n/).filter((line) => line.startsWith('{"ts":'));
/** The log level that writes the `listening` line (the helpers' environment quiets it). */
const INFO = { SWITCHYARD_LOG_LEVEL: 'info' };

describe('the start screen', () => {
  it.skipIf(!hasUtilLinuxScript())('on a terminal is text for a person: log lines too, no JSON', async () => {
    const screen = await startScreenOnTerminal({ ...INFO, SWITCHYARD_DATA_DIR: tempDir() });
    expect(screen).toContain('switchyard: serving MCP over Streamable HTTP at http://127.0.0.1:');
    expect(screen).toMatch(/\d\d:\d\d:\d\d\.\d{3} info {2}listening .*transport=http/);
    expect(jsonLogLines(screen)).toEqual([]);
  });

  it('writes JSON log lines when stderr is not a terminal, text when SWITCHYARD_LOG_FORMAT=text', async () => {
    for (const [format, json] of [
      [undefined, true],
      ['text', false],
    ] as const) {
      const server = await spawnHttpServer({
        ...INFO,
        SWITCHYARD_DATA_DIR: tempDir(),
        ...(format === undefined ? {} : { SWITCHYARD_LOG_FORMAT: format }),
      });
      try {
        // The line after which it serves comes before the URL it prints.
        const listening = server
          .stderr()
          .split('\n')
          .find((line) => line.includes('listening'));
        if (json) expect(JSON.parse(listening ?? '')).toMatchObject({ level: 'info', msg: 'listening' });
        else expect(jsonLogLines(server.stderr())).toEqual([]);
      } finally {
        await server.stop();
      }
    }
  });

  it('refuses a log format it does not know, naming the variable', async () => {
    const { code, stderr } = await runBin(['--http', '--port', '0'], {
      SWITCHYARD_DATA_DIR: tempDir(),
      SWITCHYARD_LOG_FORMAT: 'yaml',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('SWITCHYARD_LOG_FORMAT must be one of json, text, got "yaml"');
  });
});
