import { createHash } from 'node:crypto';
import {
  LaunchErrorPayloadSchema,
  LaunchGetArtifactOutputSchema,
  LaunchGetStatusOutputSchema,
  LaunchListRunsOutputSchema,
} from '@switchyard/contracts/launch-runs';
import { contractErrorOf, errorOf } from '@switchyard/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startHarnessOn } from './support/dialects.js';
import { FakePipeline } from './support/fake-pipeline.js';
import { runConfig, startAndSettle, waitForStatus, type Harness } from './support/harness.js';

const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

describe.each(DIALECTS)('queries (%s)', (dialect) => {
  let h: Harness;
  let runId: string;
  beforeAll(async () => {
    h = await startHarnessOn(dialect, {
      pipeline: new FakePipeline({ seededProblems: 1, binaryArtifact: true }),
    });
    ({ runId } = await startAndSettle(h));
  });
  afterAll(async () => {
    await h.close();
  });

  describe('run_id checks come before any lookup', () => {
    it.each([
      'launch_get_status',
      'launch_get_artifact',
      'launch_validate',
      'launch_fix_next',
      'launch_resume',
      'launch_cancel',
      'launch_open_pr',
    ])(
      '%s: a malformed run_id is INVALID_INPUT and is not echoed back; an unknown one is RUN_NOT_FOUND',
      async (tool) => {
        const extra = tool === 'launch_get_artifact' ? { artifact_name: 'page_plan.json' } : {};
        for (const bad of ['../../etc/passwd', 'r_x', 'r_2026-01-01T00-00-00Z_00000000/..', '']) {
          const payload = (await h.call(tool, { run_id: bad, ...extra })).structured;
          const error = errorOf(payload, 'INVALID_INPUT');
          expect(payload.run_id).toBeUndefined();
          expect(error.message).toContain('run_id');
        }
        const unknown = 'r_2026-01-01T00-00-00Z_00000000';
        const payload = (await h.call(tool, { run_id: unknown, ...extra })).structured;
        errorOf(payload, 'RUN_NOT_FOUND');
        expect(payload.run_id).toBe(unknown);
      },
    );
  });

  describe('launch_get_status', () => {
    it('reflects the run: state, sections, open issues, artifacts with sha256, additive fields', async () => {
      const payload = LaunchGetStatusOutputSchema.parse(
        (await h.call('launch_get_status', { run_id: runId })).structured,
      );
      expect(payload.status).toMatchObject({
        run_id: runId,
        state: 'VALIDATING',
        product_slug: 'example-product',
      });
      expect(payload.status.open_issues).toEqual([
        expect.objectContaining({
          severity: 'blocker',
          gate: 'TemplateTokens',
          title: expect.stringContaining('__FIXME__'),
        }),
      ]);
      const names = payload.status.artifacts.map((a) => a.name);
      expect(names).toEqual([...names].sort());
      expect(names).toEqual(
        expect.arrayContaining([
          'repo_inventory.json',
          'page_plan.json',
          'validation_report.json',
          'logo.png',
        ]),
      );
    });
  });

  describe('launch_get_artifact', () => {
    it('returns text artifacts as text with the sha256 of their bytes', async () => {
      const payload = LaunchGetArtifactOutputSchema.parse(
        (await h.call('launch_get_artifact', { run_id: runId, artifact_name: 'page_plan.json' })).structured,
      );
      expect(payload.artifact).toMatchObject({
        name: 'page_plan.json',
        content_type: 'application/json',
        encoding: 'utf-8',
      });
      expect(JSON.parse(payload.artifact.content)).toHaveProperty('pages');
      expect(sha(payload.artifact.content)).toBe(payload.artifact.sha256);
      const draft = LaunchGetArtifactOutputSchema.parse(
        (
          await h.call('launch_get_artifact', {
            run_id: runId,
            artifact_name: 'drafts/docs/example-product.md',
          })
        ).structured,
      );
      expect(draft.artifact.content_type).toBe('text/markdown');
    });

    it('returns binary artifacts as base64 with a content_type that says so', async () => {
      const payload = LaunchGetArtifactOutputSchema.parse(
        (await h.call('launch_get_artifact', { run_id: runId, artifact_name: 'logo.png' })).structured,
      );
      expect(payload.artifact).toMatchObject({ content_type: 'image/png;base64', encoding: 'base64' });
      const bytes = Buffer.from(payload.artifact.content, 'base64');
      expect([...bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
      expect(sha(bytes)).toBe(payload.artifact.sha256);
    });

    it.each([
      '../launch-runs.sqlite',
      '../../../../etc/passwd',
      'drafts/../../secret',
      '/etc/passwd',
      'a\\..\\b',
      '.hidden',
    ])('a traversal name %j is INVALID_INPUT, never a file read', async (name) => {
      const error = errorOf(
        await h.call('launch_get_artifact', { run_id: runId, artifact_name: name }),
        'INVALID_INPUT',
      );
      expect(error.message).not.toContain('ENOENT');
    });

    it('an artifact the run does not have is INVALID_INPUT listing what it has', async () => {
      const error = contractErrorOf(
        await h.call('launch_get_artifact', { run_id: runId, artifact_name: 'nope.json' }),
        LaunchErrorPayloadSchema,
      );
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.details).toMatchObject({ reason: 'artifact_not_found', artifact_name: 'nope.json' });
      expect(error.details.available).toContain('page_plan.json');
    });
  });

  describe('launch_list_runs', () => {
    it('filters by product_slug and state, newest first, 50 per page with a cursor', async () => {
      const local = await startHarnessOn(dialect, {
        pipeline: new FakePipeline({ seededProblems: 0, writeArtifacts: false }),
        // 53 unfinished runs of one principal: more than LAUNCH_MAX_ACTIVE_RUNS allows by default.
        config: { maxActiveRuns: 100 },
      });
      try {
        const ids: string[] = [];
        for (let i = 0; i < 53; i += 1) {
          const slug = i % 2 === 0 ? 'even-product' : 'odd-product';
          ids.push(
            (await local.call('launch_start_run', { run_config: runConfig({ product_slug: slug }) }))
              .structured.run_id as string,
          );
        }
        for (const id of ids) await waitForStatus(local, id, (s) => s.state === 'READY_FOR_PR');
        const first = LaunchListRunsOutputSchema.parse((await local.call('launch_list_runs', {})).structured);
        expect(first.runs).toHaveLength(50);
        expect(first.next_cursor).toEqual(expect.any(String));
        const second = LaunchListRunsOutputSchema.parse(
          (await local.call('launch_list_runs', { cursor: first.next_cursor })).structured,
        );
        expect(second.runs).toHaveLength(3);
        expect(second.next_cursor).toBeNull();
        const all = [...first.runs, ...second.runs];
        expect(new Set(all.map((r) => r.run_id))).toEqual(new Set(ids));
        const started = all.map((r) => r.started_at);
        expect(started).toEqual([...started].sort().reverse());
        expect(all[0]?.run_id).toBe(ids.at(-1));

        const even = LaunchListRunsOutputSchema.parse(
          (await local.call('launch_list_runs', { filter: { product_slug: 'even-product' } })).structured,
        );
        expect(even.runs).toHaveLength(27);
        expect(
          even.runs.every(
            (r) => r.product_slug === 'even-product' && r.state === 'READY_FOR_PR' && r.finished_at === null,
          ),
        ).toBe(true);
        const small = LaunchListRunsOutputSchema.parse(
          (
            await local.call('launch_list_runs', {
              filter: { product_slug: 'odd-product', state: 'READY_FOR_PR' },
              limit: 20,
            })
          ).structured,
        );
        expect(small.runs).toHaveLength(20);
        const rest = LaunchListRunsOutputSchema.parse(
          (
            await local.call('launch_list_runs', {
              filter: { product_slug: 'odd-product', state: 'READY_FOR_PR' },
              limit: 20,
              cursor: small.next_cursor,
            })
          ).structured,
        );
        expect(rest.runs).toHaveLength(6);
        const none = LaunchListRunsOutputSchema.parse(
          (await local.call('launch_list_runs', { filter: { state: 'DONE' } })).structured,
        );
        expect(none).toEqual({ ok: true, runs: [], next_cursor: null });
        errorOf(await local.call('launch_list_runs', { cursor: 'not-a-cursor' }), 'INVALID_INPUT');
        // JSON of the cursor's shape with the wrong types inside: refused, never handed to the query.
        // A time past what a bigint column holds, or text no run id has, once reached PostgreSQL as INTERNAL.
        const runId = 'r_2026-01-21T10-00-00Z_abcd1234';
        for (const forged of [
          ['1', 'r'],
          [1.5, 'r'],
          [1, 2],
          [1e308, runId],
          [2 ** 63, runId],
          [-1, runId],
          [1, 'r_2026\u0000x_abcd1234'],
          [1, runId, 'more'],
        ]) {
          const cursor = Buffer.from(JSON.stringify(forged)).toString('base64url');
          const error = errorOf(await local.call('launch_list_runs', { cursor }), 'INVALID_INPUT');
          expect(error.details).toMatchObject({ reason: 'invalid_cursor' });
        }
        errorOf(await local.call('launch_list_runs', { filter: { state: 'RUNNING' } }), 'INVALID_INPUT');
      } finally {
        await local.close();
      }
    });
  });
});
