// Every launch run belongs to the principal that started it (issue #17): another principal reaches none of
// it, by run_id in any tool, by resource URI, by listing or completion, or by reusing its idempotency key, and
// gets the same answer as for a run that never existed.
import type { Client } from '@modelcontextprotocol/client';
import { localPrincipal } from '@switchyard/server-kit/runtime';
import { callTool } from '@switchyard/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLaunchDatabase } from '../src/db/open.js';
import { DIALECTS, startHarnessOn } from './support/dialects.js';
import { FakePipeline } from './support/fake-pipeline.js';
import { runConfig, startAndSettle, tempDir, type Harness, type Payload } from './support/harness.js';

const MISSING = 'r_2026-01-21T10-00-00Z_00000000';

/** The answer with the run id masked, so the one for another's run compares with the one for a missing run. */
const masked = (payload: Payload, id: string) => JSON.parse(JSON.stringify(payload).replaceAll(id, '<id>'));

describe.each(DIALECTS)('ownership (%s)', (dialect) => {
  let h: Harness;
  let other: Client;
  let runId: string;

  beforeAll(async () => {
    h = await startHarnessOn(dialect, { pipeline: new FakePipeline({ seededProblems: 1 }) });
    ({ runId } = await startAndSettle(h, runConfig(), 'shared-key'));
    other = await h.connect('modern', 'someone-else');
  });
  afterAll(async () => {
    await h.close();
  });

  async function asOther(name: string, args: Record<string, unknown>): Promise<Payload> {
    return (await callTool(other, name, args)).structured as Payload;
  }

  describe("another principal's launch run", () => {
    it.each([
      ['launch_get_status', {}],
      ['launch_get_artifact', { artifact_name: 'page_plan.json' }],
      ['launch_validate', {}],
      ['launch_fix_next', {}],
      ['launch_resume', {}],
      ['launch_cancel', {}],
      ['launch_open_pr', {}],
    ])('%s answers RUN_NOT_FOUND, exactly as for a run that never existed', async (name, args) => {
      const theirs = await asOther(name, { ...args, run_id: runId });
      const missing = await asOther(name, { ...args, run_id: MISSING });
      expect((theirs.error as { code: string }).code).toBe('RUN_NOT_FOUND');
      expect(masked(theirs, runId)).toEqual(masked(missing, MISSING));
    });

    it('is not listed, completed or readable as a resource', async () => {
      const listed = await asOther('launch_list_runs', {});
      expect(listed).toMatchObject({ ok: true, runs: [] });
      const { resources } = await other.listResources();
      expect(resources.filter((resource) => resource.uri.includes(runId))).toEqual([]);
      await expect(other.readResource({ uri: `launch://runs/${runId}/events.ndjson` })).rejects.toThrow(
        /No run with run_id/,
      );
      const completion = await other.complete({
        ref: { type: 'ref/resource', uri: 'launch://runs/{run_id}/events.ndjson' },
        argument: { name: 'run_id', value: 'r_' },
      });
      expect(completion.completion.values).toEqual([]);
      const names = await other.complete({
        ref: { type: 'ref/resource', uri: 'launch://runs/{run_id}/artifacts/{+name}' },
        argument: { name: 'name', value: '' },
        context: { arguments: { run_id: runId } },
      });
      expect(names.completion.values).toEqual([]);
    });

    it('its idempotency key is another key for someone else: a run of their own', async () => {
      const started = await asOther('launch_start_run', {
        run_config: runConfig(),
        idempotency_key: 'shared-key',
      });
      expect(started).toMatchObject({ ok: true, state: 'CREATED' });
      expect(started.run_id).not.toBe(runId);
      const mine = (await h.call('launch_list_runs', {})).structured;
      expect((mine.runs as { run_id: string }[]).map((run) => run.run_id)).toEqual([runId]);
    });

    it('stays whole for its owner', async () => {
      const status = (await h.call('launch_get_status', { run_id: runId })).structured;
      expect(status).toMatchObject({ ok: true, status: { run_id: runId, state: 'VALIDATING' } });
    });
  });
});

// About launch-runs.sqlite's files from before owners (PostgreSQL databases have had owners from the start).
describe('runs from before owners were recorded', () => {
  it("become the local principal's when the database opens", async () => {
    const dataDir = tempDir('unowned');
    const first = openLaunchDatabase(dataDir);
    first.sqlite
      .prepare(
        `INSERT INTO runs (run_id, owner, product_slug, config, config_hash, state, section_states, created_at,
           created_ms, updated_at) VALUES (?, '', 'p', '{}', 'h', 'DONE', '{}', '2026-01-01T00:00:00Z', 0,
           '2026-01-01T00:00:00Z')`,
      )
      .run(MISSING);
    first.sqlite.close();
    const reopened = openLaunchDatabase(dataDir);
    try {
      expect(reopened.sqlite.prepare('SELECT owner FROM runs WHERE run_id = ?').pluck().get(MISSING)).toBe(
        localPrincipal(),
      );
    } finally {
      reopened.sqlite.close();
    }
  });
});
