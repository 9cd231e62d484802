// The launch_docs prompt's rules no other test held (found by mutation testing): which arguments it needs,
// which product slugs it completes, and that the run_config it writes out is one launch_start_run accepts.
import { LaunchStartRunOutputSchema } from '@switchyard/contracts/launch-runs';
import { afterEach, describe, expect, it } from 'vitest';
import { exampleRunConfig } from '../src/pipeline/examples.js';
import { FakePipeline } from './support/fake-pipeline.js';
import { atRest, runConfig, startHarness, waitForStatus, type Harness } from './support/harness.js';

const ARGUMENTS = {
  product_slug: 'tallyho',
  product_name: 'Tallyho',
  source_repo: 'https://github.com/example/tallyho.git',
  site_repo: 'https://github.com/example/site.git',
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function promptText(harness: Harness, args: Record<string, string> = ARGUMENTS): Promise<string> {
  const got = await harness.client.getPrompt({ name: 'launch_docs', arguments: args });
  return got.messages[0]?.content.type === 'text' ? got.messages[0].content.text : '';
}

async function completeSlug(harness: Harness, value: string): Promise<string[]> {
  const { completion } = await harness.client.complete({
    ref: { type: 'ref/prompt', name: 'launch_docs' },
    argument: { name: 'product_slug', value },
  });
  return completion.values;
}

describe('the launch_docs prompt', () => {
  it('needs all four arguments, and says which one is missing', async () => {
    h = await startHarness({ pipeline: new FakePipeline({ seededProblems: 0 }) });
    const { prompts } = await h.client.listPrompts();
    const launch = prompts.find((p) => p.name === 'launch_docs')!;
    expect(launch.arguments?.map((a) => [a.name, a.required])).toEqual([
      ['product_slug', true],
      ['product_name', true],
      ['source_repo', true],
      ['site_repo', true],
    ]);
    for (const name of Object.keys(ARGUMENTS)) {
      const args: Record<string, string> = { ...ARGUMENTS };
      delete args[name];
      await expect(promptText(h, args)).rejects.toThrow(`needs "${name}"`);
    }
  });

  it('writes out the run_config with both repositories and the default sections and paths; launch_start_run accepts it', async () => {
    h = await startHarness({ pipeline: new FakePipeline({ seededProblems: 0 }) });
    const text = await promptText(h);
    const match = /\{"run_config":(\{.*?\})\}/.exec(text);
    const config = JSON.parse(match?.[1] ?? 'null') as Record<string, unknown>;
    // The README walk-through's run_config for these repositories.
    expect(config).toEqual(
      exampleRunConfig({ sourceRepo: ARGUMENTS.source_repo, siteRepo: ARGUMENTS.site_repo }),
    );
    const started = LaunchStartRunOutputSchema.parse(
      (await h.call('launch_start_run', { run_config: config })).structured,
    );
    expect(started.state).toBe('CREATED');
    expect(text).toContain('Poll launch_get_status until the run is VALIDATING or READY_FOR_PR');
  });

  it('refuses what launch_start_run would refuse, naming each argument at once', async () => {
    h = await startHarness({ pipeline: new FakePipeline({ seededProblems: 0 }) });
    const args = {
      ...ARGUMENTS,
      product_slug: 'Tally Ho',
      product_name: 'x'.repeat(121),
      site_repo: 'x'.repeat(2049),
    };
    const refused = promptText(h, args);
    await expect(refused).rejects.toThrow(/INVALID_INPUT/);
    await expect(refused).rejects.toThrow(
      /product_slug: product_slug must match \^\[a-z0-9\]\[a-z0-9-\]\{1,62\}\$; product_name: .*; site_repo: /,
    );
    await expect(refused).rejects.not.toThrow(/source_repo/);
  });

  it('completes each product slug once, from its start, whatever the case typed', async () => {
    h = await startHarness({ pipeline: new FakePipeline({ seededProblems: 0 }) });
    for (const slug of ['tallyho', 'tallyho', 'teapot'])
      await h.call('launch_start_run', { run_config: runConfig({ product_slug: slug }) });
    expect(await completeSlug(h, 'ta')).toEqual(['tallyho']);
    expect(await completeSlug(h, 'TA')).toEqual(['tallyho']);
    expect(await completeSlug(h, 'ally')).toEqual([]);
    expect((await completeSlug(h, '')).sort()).toEqual(['tallyho', 'teapot']);
  });
});

describe('the launch_write_docs prompt', () => {
  async function writeDocsText(harness: Harness, runId: string): Promise<string> {
    const got = await harness.client.getPrompt({ name: 'launch_write_docs', arguments: { run_id: runId } });
    return got.messages[0]?.content.type === 'text' ? got.messages[0].content.text : '';
  }

  it('walks through brief, write, submit and revise for the run it names, and refuses a malformed run id', async () => {
    h = await startHarness({ pipeline: new FakePipeline({ seededProblems: 0 }) });
    const runId = 'r_2026-01-21T10-00-00Z_0f3a9c1e';
    const text = await writeDocsText(h, runId);
    expect(text).toContain(`launch_get_artifact {"run_id":"${runId}","artifact_name":"writing_brief.json"}`);
    expect(text).toContain(
      `launch_submit_draft {"run_id":"${runId}","page":"<page_id>","markdown":"<body>"}`,
    );
    expect(text).toContain('until remaining_pages is empty');
    await expect(writeDocsText(h, '../etc')).rejects.toThrow(/INVALID_INPUT/);
  });

  it("completes the caller's runs waiting in DRAFTING, not the others", async () => {
    h = await startHarness({ pipeline: new FakePipeline({ seededProblems: 0 }) });
    const start = async (drafting: 'model' | 'extractive') => {
      const runId = (await h!.call('launch_start_run', { run_config: runConfig({ drafting }) })).structured
        .run_id as string;
      await waitForStatus(
        h!,
        runId,
        (status) =>
          atRest(status) ||
          (status.state === 'DRAFTING' && (status.details as { busy?: boolean }).busy === false),
      );
      return runId;
    };
    const waiting = await start('model');
    await start('extractive');
    const { completion } = await h.client.complete({
      ref: { type: 'ref/prompt', name: 'launch_write_docs' },
      argument: { name: 'run_id', value: 'r_' },
    });
    expect(completion.values).toEqual([waiting]);
  });
});
