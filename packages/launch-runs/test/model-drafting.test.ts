import fs from 'node:fs';
import path from 'node:path';
import { LaunchSubmitDraftOutputSchema } from '@switchyard/contracts/launch-runs';
import { errorOf } from '@switchyard/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WritingBriefSchema } from '../src/pipeline/artifact-schemas.js';
import {
  createLaunchPipeline,
  materializeExampleRepos,
  quotingDraft,
  type ExampleRepos,
} from '../src/pipeline/index.js';
import { startChildServer } from './support/child-server.js';
import { DIALECTS, storageFor } from './support/dialects.js';
import { FakePipeline } from './support/fake-pipeline.js';
import {
  atRest,
  cleanedAfterEach,
  runConfig,
  startHarness,
  tempDir,
  waitForStatus,
  type Harness,
} from './support/harness.js';
import { artifactText, exampleConfig } from './support/launch-flow.js';

/** Nobody works on the run and it waits for drafts, or stopped where an extractive run stops. */
const waitingOrAtRest = (status: { state: string; details?: Record<string, unknown> }) =>
  atRest(status) || (status.state === 'DRAFTING' && status.details?.busy === false);

type Status = { state: string; waiting_for_drafts?: string[]; details: Record<string, unknown> };

async function statusOf(h: Pick<Harness, 'call'>, runId: string): Promise<Status> {
  return (await h.call('launch_get_status', { run_id: runId })).structured.status as Status;
}

const workDir = tempDir('model-drafting');
let repos: ExampleRepos;
beforeAll(async () => {
  repos = await materializeExampleRepos(path.join(workDir, 'repos'));
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe.each(['modern', 'legacy'] as const)(
  'a model-drafting run on the example repositories, %s era',
  (era) => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ pipeline: createLaunchPipeline(), era });
    });
    afterAll(() => h.close());

    it(
      'publishes the brief, refuses a fabricated sentence, accepts its revision and goes on as extractive does',
      { timeout: 120_000 },
      async () => {
        const config = exampleConfig(repos, { drafting: 'model' });
        const runId = (await h.call('launch_start_run', { run_config: config })).structured.run_id as string;
        const waiting = await waitForStatus(h, runId, waitingOrAtRest);
        expect(waiting).toMatchObject({ state: 'DRAFTING', details: { interrupted: false, busy: false } });
        const brief = WritingBriefSchema.parse(
          JSON.parse(await artifactText(h, runId, 'writing_brief.json')),
        );
        const pageIds = brief.pages.map((page) => page.page_id);
        expect(pageIds.length).toBeGreaterThan(1);
        expect((waiting as Status).waiting_for_drafts).toEqual(pageIds);

        const [first, ...rest] = brief.pages;
        const cited = first!.evidence[0]!.claim_id;
        const fabricated = `${quotingDraft(first!)}\nIt retries a failed request 17 times. <!-- claim_id: ${cited} -->\n`;
        const refused = LaunchSubmitDraftOutputSchema.parse(
          (await h.call('launch_submit_draft', { run_id: runId, page: first!.page_id, markdown: fabricated }))
            .structured,
        );
        expect(refused).toMatchObject({ ok: true, run_id: runId, page: first!.page_id, accepted: false });
        expect(new Set(refused.issues.map((issue) => issue.sentence))).toEqual(
          new Set(['It retries a failed request 17 times.']),
        );
        expect(refused.issues.map((issue) => issue.code)).toContain('UNSUPPORTED_NUMBER');
        expect(refused.issues[0]!.message.length).toBeGreaterThan(0);
        expect(refused.remaining_pages).toEqual(pageIds);
        expect((await statusOf(h, runId)).waiting_for_drafts).toEqual(pageIds);

        // The run writes the front matter and the title: a body with its own is refused, naming both lines.
        const titled = `---\ntitle: Mine\n---\n\n# ${first!.title}\n\n${quotingDraft(first!)}`;
        const shaped = LaunchSubmitDraftOutputSchema.parse(
          (await h.call('launch_submit_draft', { run_id: runId, page: first!.page_id, markdown: titled }))
            .structured,
        );
        expect(shaped.issues.map(({ line, code }) => [line, code])).toEqual([
          [1, 'FRONT_MATTER'],
          [5, 'TITLE_HEADING'],
        ]);

        const revised = LaunchSubmitDraftOutputSchema.parse(
          (
            await h.call('launch_submit_draft', {
              run_id: runId,
              page: first!.page_id,
              markdown: quotingDraft(first!),
            })
          ).structured,
        );
        expect(revised).toMatchObject({ accepted: true, issues: [], remaining_pages: pageIds.slice(1) });
        const plan = JSON.parse(await artifactText(h, runId, 'page_plan.json')) as {
          pages: { page_id: string; draft: string }[];
        };
        const draftName = plan.pages.find((page) => page.page_id === first!.page_id)!.draft;
        const draft = await artifactText(h, runId, draftName);
        expect(draft.startsWith('---\n')).toBe(true);
        expect(draft).toMatch(/^title: /m);
        expect(draft.endsWith(quotingDraft(first!))).toBe(true);
        const provenance = JSON.parse(await artifactText(h, runId, 'draft_provenance.json')) as {
          pages: Record<string, { written_by: string; sentences: { accepted: boolean }[] }>;
        };
        expect(Object.keys(provenance.pages)).toEqual([first!.page_id]);
        expect(provenance.pages[first!.page_id]!.written_by).toBe('model');
        expect(provenance.pages[first!.page_id]!.sentences.every((verdict) => verdict.accepted)).toBe(true);

        // The page is in: submitting it again is refused, naming the pages the run still waits for.
        const again = errorOf(
          await h.call('launch_submit_draft', {
            run_id: runId,
            page: first!.page_id,
            markdown: quotingDraft(first!),
          }),
          'ILLEGAL_STATE',
        );
        expect(again.details).toMatchObject({
          current_state: 'DRAFTING',
          waiting_for_drafts: pageIds.slice(1),
        });

        let remaining = pageIds.slice(1);
        for (const page of rest) {
          const answer = LaunchSubmitDraftOutputSchema.parse(
            (
              await h.call('launch_submit_draft', {
                run_id: runId,
                page: page.page_id,
                markdown: quotingDraft(page),
              })
            ).structured,
          );
          remaining = remaining.filter((id) => id !== page.page_id);
          expect(answer).toMatchObject({ accepted: true, remaining_pages: remaining });
        }
        const after = await statusOf(h, runId);
        expect(['VALIDATING', 'READY_FOR_PR']).toContain(after.state);
        expect(after.waiting_for_drafts).toBeUndefined();
        const names = (await h.call('launch_get_status', { run_id: runId })).structured.status as {
          artifacts: { name: string }[];
        };
        expect(names.artifacts.map((artifact) => artifact.name)).toEqual(
          expect.arrayContaining(['patch_bundle.json', 'validation_report.json']),
        );
      },
    );
  },
);

describe('launch_submit_draft refusals and a resting run', () => {
  const { kept, folder } = cleanedAfterEach();

  async function modelRun(h: Harness): Promise<string> {
    const started = await h.call('launch_start_run', { run_config: runConfig({ drafting: 'model' }) });
    const runId = started.structured.run_id as string;
    await waitForStatus(h, runId, waitingOrAtRest);
    return runId;
  }

  it('waits in DRAFTING with the pages to write; an extractive run never waits', async () => {
    const h = kept(await startHarness({ pipeline: new FakePipeline({ seededProblems: 0 }) }));
    const runId = await modelRun(h);
    expect(await statusOf(h, runId)).toMatchObject({
      state: 'DRAFTING',
      waiting_for_drafts: ['products/example-product', 'docs/example-product'],
      details: { interrupted: false, busy: false },
    });
    const extractive = (await h.call('launch_start_run', { run_config: runConfig() })).structured
      .run_id as string;
    const done = await waitForStatus(h, extractive, atRest);
    expect(done.state).toBe('READY_FOR_PR');
    expect('waiting_for_drafts' in done).toBe(false);
    const refused = errorOf(
      await h.call('launch_submit_draft', {
        run_id: extractive,
        page: 'docs/example-product',
        markdown: 'x',
      }),
      'ILLEGAL_STATE',
    );
    expect(refused.details).toMatchObject({ current_state: 'READY_FOR_PR', waiting_for_drafts: [] });
  });

  it('refuses a page the run does not wait for, naming the ones it does, and a missing run', async () => {
    const h = kept(await startHarness({ pipeline: new FakePipeline({ seededProblems: 0 }) }));
    const runId = await modelRun(h);
    const refused = errorOf(
      await h.call('launch_submit_draft', { run_id: runId, page: 'docs/nothing', markdown: 'x' }),
      'ILLEGAL_STATE',
    );
    expect(refused.message).toContain('products/example-product, docs/example-product');
    expect(refused.details).toMatchObject({
      reason: 'page_not_waiting',
      waiting_for_drafts: ['products/example-product', 'docs/example-product'],
    });
    const missing = 'r_2026-01-01T00-00-00Z_00000000';
    errorOf(
      await h.call('launch_submit_draft', { run_id: missing, page: 'docs/x', markdown: 'x' }),
      'RUN_NOT_FOUND',
    );
  });

  it('refuses a draft over LAUNCH_MAX_DRAFT_BYTES before it touches the run', async () => {
    const h = kept(
      await startHarness({
        pipeline: new FakePipeline({ seededProblems: 0 }),
        config: { maxDraftBytes: 1024 },
      }),
    );
    const runId = await modelRun(h);
    const page = 'docs/example-product';
    const refused = errorOf(
      await h.call('launch_submit_draft', { run_id: runId, page, markdown: 'é'.repeat(513) }),
      'INVALID_INPUT',
    );
    expect(refused.details).toMatchObject({ reason: 'draft_too_large', bytes: 1026, max_bytes: 1024 });
    const fits = await h.call('launch_submit_draft', { run_id: runId, page, markdown: 'é'.repeat(512) });
    expect(fits.structured).toMatchObject({ ok: true, accepted: true });
  });

  it("answers another principal's run as a missing one and changes nothing", async () => {
    const h = kept(await startHarness({ pipeline: new FakePipeline({ seededProblems: 0 }) }));
    const runId = await modelRun(h);
    const other = await h.connect('modern', 'someone-else');
    const answer = await other.callTool({
      name: 'launch_submit_draft',
      arguments: { run_id: runId, page: 'docs/example-product', markdown: 'Fine.' },
    });
    errorOf((answer.structuredContent ?? {}) as Record<string, unknown>, 'RUN_NOT_FOUND');
    expect((await statusOf(h, runId)).waiting_for_drafts).toEqual([
      'products/example-product',
      'docs/example-product',
    ]);
  });

  it('counts down, then the last page moves the run on; a refused draft stores nothing', async () => {
    const h = kept(await startHarness({ pipeline: new FakePipeline({ seededProblems: 0 }) }));
    const runId = await modelRun(h);
    const submit = (page: string, markdown: string) =>
      h.call('launch_submit_draft', { run_id: runId, page, markdown }).then((answer) => answer.structured);
    expect(await submit('docs/example-product', 'One.\n__FIXME__\n')).toMatchObject({
      accepted: false,
      issues: [{ line: 2, sentence: '__FIXME__', code: 'UNCITED_FACT' }],
      remaining_pages: ['products/example-product', 'docs/example-product'],
    });
    const names = async () =>
      ((await statusOf(h, runId)) as unknown as { artifacts: { name: string }[] }).artifacts.map(
        (a) => a.name,
      );
    expect(await names()).not.toContain('drafts/docs/example-product.md');
    expect(await submit('docs/example-product', 'One.\n')).toMatchObject({
      accepted: true,
      remaining_pages: ['products/example-product'],
    });
    expect(await names()).toContain('drafts/docs/example-product.md');
    expect(await submit('products/example-product', 'Two.\n')).toMatchObject({
      accepted: true,
      remaining_pages: [],
    });
    expect((await statusOf(h, runId)).state).toBe('READY_FOR_PR');
  });

  it.each(DIALECTS)(
    'survives a restart on %s: the reopened store answers the same status, not interrupted',
    { timeout: 60_000 },
    async (dialect) => {
      const dataDir = folder('restart');
      const pipeline = new FakePipeline({ seededProblems: 0 });
      const storage = await storageFor(dialect);
      const first = await startHarness({ pipeline, dataDir, keepDataDir: true, ...storage });
      let runId: string;
      let before: Status;
      try {
        runId = await modelRun(first);
        await first.call('launch_submit_draft', {
          run_id: runId,
          page: 'docs/example-product',
          markdown: 'One.\n',
        });
        before = await statusOf(first, runId);
      } finally {
        await first.close();
      }
      expect(before).toMatchObject({
        state: 'DRAFTING',
        waiting_for_drafts: ['products/example-product'],
        details: { interrupted: false, busy: false },
      });
      const second = kept(await startHarness({ pipeline, dataDir, keepDataDir: true, ...storage }));
      expect(await statusOf(second, runId)).toEqual(before);
      const resumed = (await second.call('launch_resume', { run_id: runId })).structured.status as Status;
      expect(resumed).toMatchObject({ state: 'DRAFTING', waiting_for_drafts: ['products/example-product'] });
      expect(
        await second
          .call('launch_submit_draft', {
            run_id: runId,
            page: 'products/example-product',
            markdown: 'Two.\n',
          })
          .then((answer) => answer.structured),
      ).toMatchObject({ accepted: true, remaining_pages: [] });
      expect((await statusOf(second, runId)).state).toBe('READY_FOR_PR');
    },
  );

  it(
    'survives SIGKILL while it waits: a new process finds it waiting, not interrupted',
    { timeout: 60_000 },
    async () => {
      const dataDir = folder('sigkill');
      const killed = await startChildServer({ dataDir, pipeline: 'fake' });
      let runId: string;
      let before: Status;
      try {
        runId = (await killed.call('launch_start_run', { run_config: runConfig({ drafting: 'model' }) }))
          .structured.run_id as string;
        before = (await waitForStatus(killed, runId, waitingOrAtRest)) as unknown as Status;
      } finally {
        await killed.kill();
      }
      expect(before).toMatchObject({ state: 'DRAFTING', details: { interrupted: false } });
      const next = await startChildServer({ dataDir, pipeline: 'fake' });
      try {
        expect(await statusOf(next, runId)).toEqual(before);
      } finally {
        await next.close();
      }
    },
  );
});
