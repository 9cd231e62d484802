// docs/adding-a-domain.md: its example domain is quoted there exactly as this package compiles it, decides its
// own mounting, and serves its tool through the combined server to a real client in both protocol eras.
import fs from 'node:fs';
import path from 'node:path';
import { mount } from '@switchyard/server-kit';
import { createLogger } from '@switchyard/server-kit/runtime';
import { callTool, type ProtocolEra } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { startSwitchyard } from '../src/index.js';
import { autoMountGreetings, greetingsDomain, loadGreetingsConfig } from './guide-example/greetings.js';
import { connectHttp, REPO_ROOT, tempDir } from './helpers.js';

const GUIDE = 'docs/adding-a-domain.md';
const EXAMPLE = 'apps/meta-server/test/guide-example/greetings.ts';

describe("the guide's example domain", () => {
  it('is quoted in the guide exactly as the file compiled here', () => {
    const guide = fs.readFileSync(path.join(REPO_ROOT, GUIDE), 'utf8');
    const marker = `<!-- example: ${EXAMPLE} -->`;
    expect(guide).toContain(marker);
    const quoted = /```ts\n([\s\S]*?)```/.exec(guide.slice(guide.indexOf(marker)))?.[1];
    expect(quoted).toBe(fs.readFileSync(path.join(REPO_ROOT, EXAMPLE), 'utf8'));
  });

  it('mounts when named or when its variable is set, and says what would mount it otherwise', () => {
    expect(autoMountGreetings({}, false)).toEqual({
      mount: false,
      reason: 'GREETINGS_WORD is not set; set it to add the greet tool',
    });
    expect(autoMountGreetings({ GREETINGS_WORD: 'Hei' }, false)).toMatchObject({
      mount: true,
      why: 'GREETINGS_WORD is set',
    });
    expect(autoMountGreetings({}, true)).toMatchObject({ mount: true, why: 'named in --domains' });
    expect(() => loadGreetingsConfig({ GREETINGS_WORD: 'two words' })).toThrow('GREETINGS_WORD');
  });

  it.each<ProtocolEra>(['modern', 'legacy'])(
    'serves greet through the combined server (%s era)',
    async (era) => {
      const env = { GREETINGS_WORD: 'Hei' };
      const running = await startSwitchyard({
        transport: 'http',
        port: 0,
        env,
        domains: ['journey-continuity'],
        extraDomains: [mount(greetingsDomain, env)],
        dataDir: tempDir(),
        logger: createLogger({ level: 'error' }),
        handleSignals: false,
        announce: () => {},
      });
      try {
        const client = await connectHttp(running.url ?? '', undefined, era);
        try {
          const tools = (await client.listTools()).tools.map((tool) => tool.name);
          expect(tools).toContain('greet');
          const answer = await callTool(client, 'greet', { name: 'Aino' });
          expect(answer).toMatchObject({ isError: false, structured: { greeting: 'Hei, Aino!', count: 1 } });
          expect((await callTool(client, 'greet', { name: '' })).isError).toBe(true);
        } finally {
          await client.close();
        }
        expect(
          greetingsDomain.describe?.(loadGreetingsConfig(env), running.dataDir, 'GREETINGS_WORD is set'),
        ).toBe('word "Hei": GREETINGS_WORD is set');
      } finally {
        await running.close();
      }
    },
  );
});
