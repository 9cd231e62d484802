import { LaunchStartRunOutputSchema } from '@switchyard/contracts/launch-runs';
import { afterEach, describe, expect, it } from 'vitest';
import { FakePipeline } from './support/fake-pipeline.js';
import { atRest, runConfig, startHarness, waitForStatus, type Harness } from './support/harness.js';

const ARTIFACTS_TEMPLATE = 'launch://runs/{run_id}/artifacts/{+name}';
const EVENTS_TEMPLATE = 'launch://runs/{run_id}/events.ndjson';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The same flow in both protocol eras: 2026-07-28 (no handshake) and 2025 (initialize). */
describe.each(['modern', 'legacy'] as const)('a launch run, %s era', (era) => {
  it('starts, polls to READY_FOR_PR, lists and reads its resources, completes its run id', async () => {
    h = await startHarness({ pipeline: new FakePipeline({ seededProblems: 0 }), era });
    const started = LaunchStartRunOutputSchema.parse(
      (await h.call('launch_start_run', { run_config: runConfig() })).structured,
    );
    expect(started.state).toBe('CREATED');
    const status = await waitForStatus(h, started.run_id, atRest);
    expect(status.state).toBe('READY_FOR_PR');

    const { resources } = await h.client.listResources();
    const planUri = `launch://runs/${started.run_id}/artifacts/page_plan.json`;
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining([planUri, `launch://runs/${started.run_id}/events.ndjson`]),
    );
    const read = await h.client.readResource({ uri: planUri });
    const plan = read.contents[0] as { uri: string; mimeType?: string; text?: string };
    expect(plan).toMatchObject({ uri: planUri, mimeType: 'application/json' });
    const viaTool = (
      await h.call('launch_get_artifact', {
        run_id: started.run_id,
        artifact_name: 'page_plan.json',
      })
    ).structured;
    expect(plan.text).toBe((viaTool.artifact as { content: string }).content);

    // A second run: completion offers the run ids that start with what was typed, newest first.
    const other = (await h.call('launch_start_run', { run_config: runConfig({ product_name: 'Other' }) }))
      .structured;
    await waitForStatus(h, other.run_id as string, atRest);
    for (const uri of [ARTIFACTS_TEMPLATE, EVENTS_TEMPLATE]) {
      const all = await h.client.complete({
        ref: { type: 'ref/resource', uri },
        argument: { name: 'run_id', value: 'r_' },
      });
      expect(all.completion.values).toEqual([other.run_id, started.run_id]);
      const one = await h.client.complete({
        ref: { type: 'ref/resource', uri },
        argument: { name: 'run_id', value: started.run_id.slice(0, -1) },
      });
      expect(one.completion.values).toEqual([started.run_id]);
      // `_` and `%` are literal characters of the prefix, not SQL wildcards.
      const wildcard = await h.client.complete({
        ref: { type: 'ref/resource', uri },
        argument: { name: 'run_id', value: '%' },
      });
      expect(wildcard.completion.values).toEqual([]);
    }
    // An artifact's name completes within the run the client chose (context), in both templates.
    for (const uri of [ARTIFACTS_TEMPLATE, `${ARTIFACTS_TEMPLATE}{?offset}`]) {
      const names = await h.client.complete({
        ref: { type: 'ref/resource', uri },
        argument: { name: 'name', value: 'page' },
        context: { arguments: { run_id: started.run_id } },
      });
      expect(names.completion.values).toContain('page_plan.json');
      expect(names.completion.values.every((name) => name.startsWith('page'))).toBe(true);
      const all = await h.client.complete({
        ref: { type: 'ref/resource', uri },
        argument: { name: 'name', value: '' },
        context: { arguments: { run_id: started.run_id } },
      });
      const listed = (await h.call('launch_get_status', { run_id: started.run_id })).structured.status as {
        artifacts: { name: string }[];
      };
      expect(all.completion.values).toEqual(listed.artifacts.map((artifact) => artifact.name));
      // No run chosen yet, or not a run id: nothing to offer.
      for (const context of [undefined, { arguments: { run_id: 'not a run' } }]) {
        const none = await h.client.complete({
          ref: { type: 'ref/resource', uri },
          argument: { name: 'name', value: 'page' },
          ...(context === undefined ? {} : { context }),
        });
        expect(none.completion.values).toEqual([]);
      }
    }
  });
});

describe.each(['modern', 'legacy'] as const)('the launch_docs prompt, %s era', (era) => {
  it('completes product slugs from recent runs and asks for the whole launch loop, stopping before the PR', async () => {
    h = await startHarness({ pipeline: new FakePipeline({ seededProblems: 0 }), era });
    await h.call('launch_start_run', { run_config: runConfig({ product_slug: 'tallyho' }) });
    await h.call('launch_start_run', { run_config: runConfig({ product_slug: 'teapot' }) });
    const { completion } = await h.client.complete({
      ref: { type: 'ref/prompt', name: 'launch_docs' },
      argument: { name: 'product_slug', value: 'ta' },
    });
    expect(completion.values).toEqual(['tallyho']);

    const got = await h.client.getPrompt({
      name: 'launch_docs',
      arguments: {
        product_slug: 'tallyho',
        product_name: 'Tallyho',
        source_repo: 'https://github.com/example/tallyho.git',
        site_repo: 'https://github.com/example/site.git',
      },
    });
    const text = got.messages[0]?.content.type === 'text' ? got.messages[0].content.text : '';
    expect(text).toContain('"product_slug":"tallyho"');
    expect(text).toContain('"source":{"repo":"https://github.com/example/tallyho.git"}');
    expect(text).toMatch(/launch_fix_next[\s\S]*ask me before calling launch_open_pr/);
  });
});
