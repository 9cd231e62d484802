import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyEventChain, type RunEvent } from '../src/index.js';
import { DIALECTS, startHarnessOn } from './support/dialects.js';
import { FakePipeline } from './support/fake-pipeline.js';
import { startAndSettle, type Harness } from './support/harness.js';

describe.each(DIALECTS)('run resources (%s)', (dialect) => {
  let h: Harness;
  let runId: string;
  beforeAll(async () => {
    h = await startHarnessOn(dialect, {
      pipeline: new FakePipeline({ seededProblems: 0, binaryArtifact: true }),
    });
    ({ runId } = await startAndSettle(h));
  });
  afterAll(async () => {
    await h.close();
  });

  it('lists the artifact and events templates and the artifacts of recent runs', async () => {
    const { resourceTemplates } = await h.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'launch://runs/{run_id}/artifacts/{+name}',
      'launch://runs/{run_id}/artifacts/{+name}{?offset}',
      'launch://runs/{run_id}/events.ndjson',
      'launch://runs/{run_id}/events.ndjson{?after}',
    ]);
    const { resources } = await h.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain(`launch://runs/${runId}/artifacts/page_plan.json`);
    expect(uris).toContain(`launch://runs/${runId}/artifacts/drafts/docs/example-product.md`);
    expect(uris).toContain(`launch://runs/${runId}/events.ndjson`);
  });

  it('reads a text artifact (nested name) as text and a binary one as a base64 blob', async () => {
    const text = await h.client.readResource({
      uri: `launch://runs/${runId}/artifacts/drafts/docs/example-product.md`,
    });
    expect(text.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: '# Example Product docs\n' });
    const binary = await h.client.readResource({ uri: `launch://runs/${runId}/artifacts/logo.png` });
    const content = binary.contents[0] as { blob?: string; mimeType?: string };
    expect(content.mimeType).toBe('image/png');
    expect([...Buffer.from(content.blob ?? '', 'base64').subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it("exports the run's events as NDJSON whose hash chain verifies", async () => {
    const result = await h.client.readResource({ uri: `launch://runs/${runId}/events.ndjson` });
    const text = (result.contents[0] as { text: string }).text;
    const events = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as RunEvent);
    expect(events[0]?.type).toBe('RUN_CREATED');
    expect(events.some((e) => e.type === 'WORK_ITEM_FINISHED')).toBe(true);
    expect(verifyEventChain(events).ok).toBe(true);
    const tampered = events.map((e, i) => (i === 3 ? { ...e, payload: { ...e.payload, worker: 'W9' } } : e));
    expect(verifyEventChain(tampered)).toMatchObject({
      ok: false,
      broken_at: { seq: 4, reason: 'event_hash' },
    });
  });

  it.each([
    ['..%2F..%2Flaunch-runs.sqlite', 'INVALID_INPUT'],
    ['drafts%2F..%2F..%2F..%2Fetc%2Fpasswd', 'INVALID_INPUT'],
    ['%2Fetc%2Fpasswd', 'INVALID_INPUT'],
    ['missing.json', 'INVALID_INPUT'],
  ])('an artifact URI %s is refused (%s), never a file read', async (name, code) => {
    await expect(h.client.readResource({ uri: `launch://runs/${runId}/artifacts/${name}` })).rejects.toThrow(
      code,
    );
  });

  it('unknown or malformed run ids are refused', async () => {
    await expect(
      h.client.readResource({ uri: 'launch://runs/r_2026-01-01T00-00-00Z_00000000/events.ndjson' }),
    ).rejects.toThrow('RUN_NOT_FOUND');
    await expect(
      h.client.readResource({ uri: 'launch://runs/r%21not%20an%20id/events.ndjson' }),
    ).rejects.toThrow('INVALID_INPUT');
    // Encoded dot segments are not resolved: ".." is no run id, nothing is read.
    await expect(h.client.readResource({ uri: 'launch://runs/%2E%2E/events.ndjson' })).rejects.toThrow(
      'INVALID_INPUT',
    );
    // A URI no template matches is not found.
    await expect(h.client.readResource({ uri: 'launch://runs/events.ndjson' })).rejects.toThrow(/not found/i);
  });
});
