import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEXT_PART_META } from '@switchyard/server-kit/runtime';
import { FakePipeline } from './support/fake-pipeline.js';
import { startAndSettle, startHarness, type Harness } from './support/harness.js';

/**
 * Every launch answer is held to the answer limit (SWITCHYARD_MAX_ANSWER_BYTES) at its serialized size: a
 * validation report's issues are cut with `truncated` saying where all of them are, and an artifact or an
 * event log larger than one answer is read in parts that join up to the whole.
 */
const LIMIT = 64 * 1024;
/** Lines of text JSON escapes heavily (control characters, quotes), with characters of every UTF-8 length. */
const NOTES = Array.from(
  { length: 3000 },
  (_, i) => `line ${i}: "quoted" \u0001\u0002 é 東 😀 \\ back\tslash`,
).join('\n');
const BLOB = new Uint8Array(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 256));

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** What a tool result takes on the wire: structured content and text mirror, serialized. */
function wireBytes(raw: { structuredContent?: unknown; content?: unknown }): number {
  const text = (raw.content as { text: string }[])[0]?.text ?? '';
  return Buffer.byteLength(JSON.stringify(raw.structuredContent)) + Buffer.byteLength(JSON.stringify(text));
}

let h: Harness;
let runId: string;
beforeAll(async () => {
  h = await startHarness({
    maxAnswerBytes: LIMIT,
    pipeline: new FakePipeline({
      seededProblems: 400,
      extraArtifacts: { 'notes/long.md': NOTES, 'notes/blob.bin': BLOB },
    }),
  });
  ({ runId } = await startAndSettle(h));
});
afterAll(async () => {
  await h.close();
});

describe('launch answers held to the answer limit', () => {
  it('launch_validate cuts the report issues and says where the whole report is', async () => {
    const raw = (await h.call('launch_validate', { run_id: runId })).raw;
    expect(raw.isError).toBeFalsy();
    expect(wireBytes(raw)).toBeLessThanOrEqual(LIMIT);
    const payload = raw.structuredContent as {
      validation_report: { issues: unknown[]; ok: boolean };
      truncated: { omitted: Record<string, number>; message: string };
    };
    const kept = payload.validation_report.issues.length;
    expect(kept).toBeGreaterThan(0);
    expect(payload.truncated.omitted).toEqual({ 'validation_report.issues': 400 - kept });
    expect(payload.truncated.message).toMatch(/the artifact validation_report\.json: launch_get_artifact/);
    // The report itself still says it failed: the cut changes what is shown, not what it says.
    expect(payload.validation_report.ok).toBe(false);
  });

  it('launch_get_status cuts the open issues the same way', async () => {
    const raw = (await h.call('launch_get_status', { run_id: runId })).raw;
    expect(wireBytes(raw)).toBeLessThanOrEqual(LIMIT);
    const payload = raw.structuredContent as {
      status: { open_issues: unknown[] };
      truncated: { omitted: Record<string, number> };
    };
    expect(payload.truncated.omitted['status.open_issues']).toBe(400 - payload.status.open_issues.length);
  });

  it('launch_get_artifact reads a large text artifact in parts that join up to it', async () => {
    let offset: number | null = 0;
    let text = '';
    let parts = 0;
    while (offset !== null) {
      const raw = (
        await h.call('launch_get_artifact', {
          run_id: runId,
          artifact_name: 'notes/long.md',
          offset,
        })
      ).raw;
      expect(raw.isError).toBeFalsy();
      expect(wireBytes(raw)).toBeLessThanOrEqual(LIMIT);
      const payload = raw.structuredContent as {
        artifact: { content: string; offset: number; size: number; sha256: string; encoding: string };
        next_offset: number | null;
      };
      expect(payload.artifact).toMatchObject({
        offset,
        size: Buffer.byteLength(NOTES),
        sha256: sha256(NOTES),
        encoding: 'utf-8',
      });
      // Whole lines, except where one line alone would not fit.
      if (payload.next_offset !== null) expect(payload.artifact.content.endsWith('\n')).toBe(true);
      text += payload.artifact.content;
      offset = payload.next_offset;
      parts++;
    }
    expect(parts).toBeGreaterThan(3);
    expect(text).toBe(NOTES);
  });

  it('launch_get_artifact reads a large binary artifact in base64 parts', async () => {
    const chunks: Buffer[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const raw = (
        await h.call('launch_get_artifact', {
          run_id: runId,
          artifact_name: 'notes/blob.bin',
          offset,
        })
      ).raw;
      expect(wireBytes(raw)).toBeLessThanOrEqual(LIMIT);
      const payload = raw.structuredContent as { artifact: { content: string }; next_offset: number | null };
      chunks.push(Buffer.from(payload.artifact.content, 'base64'));
      offset = payload.next_offset;
    }
    expect(Buffer.concat(chunks).equals(Buffer.from(BLOB))).toBe(true);
  });

  it('an offset past the end or inside a character is INVALID_INPUT saying what to pass', async () => {
    const past = (
      await h.call('launch_get_artifact', {
        run_id: runId,
        artifact_name: 'notes/long.md',
        offset: 10_000_000,
      })
    ).structured;
    expect(past).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(JSON.stringify(past)).toMatch(/past the end of notes\/long\.md/);
    const inside = Buffer.from(NOTES).indexOf(Buffer.from('é')) + 1;
    const split = (
      await h.call('launch_get_artifact', {
        run_id: runId,
        artifact_name: 'notes/long.md',
        offset: inside,
      })
    ).structured;
    expect(JSON.stringify(split)).toMatch(
      /inside a character of notes\/long\.md: start at 0 or where an earlier part said the next starts/,
    );
  });

  it('the artifact resource comes in parts, each naming the next in its _meta', async () => {
    let uri: string | undefined = `launch://runs/${runId}/artifacts/notes/long.md`;
    let text = '';
    while (uri !== undefined) {
      const read = await h.client.readResource({ uri });
      const content = read.contents[0] as { text: string; _meta?: Record<string, string> };
      expect(Buffer.byteLength(JSON.stringify(read.contents))).toBeLessThanOrEqual(LIMIT);
      text += content.text;
      uri = content._meta?.[NEXT_PART_META];
    }
    expect(text).toBe(NOTES);
  });

  it('the events resource continues after the last event a part sent', async () => {
    // Each validation adds events: enough of them pass one answer.
    for (let i = 0; i < 20; i++) await h.call('launch_validate', { run_id: runId });
    let uri: string | undefined = `launch://runs/${runId}/events.ndjson`;
    const seqs: number[] = [];
    let parts = 0;
    while (uri !== undefined) {
      const read = await h.client.readResource({ uri });
      const content = read.contents[0] as { text: string; _meta?: Record<string, string> };
      seqs.push(
        ...content.text
          .trimEnd()
          .split('\n')
          .map((line) => (JSON.parse(line) as { seq: number }).seq),
      );
      uri = content._meta?.[NEXT_PART_META];
      parts++;
    }
    expect(parts).toBeGreaterThan(1);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
  });
});
