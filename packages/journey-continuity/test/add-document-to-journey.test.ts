import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_TYPES } from '@switchyard/contracts/journey';
import { MAX_METADATA_BYTES } from '../src/index.js';
import { DIALECTS, history, newJourney, startHarness, storageFor, type Harness } from './helpers.js';

const LIMIT = 2048;

interface Added {
  document_id: string;
  journey_id: string;
  document_type: string;
  created_at: string;
  title?: string;
  content_bytes?: number;
  metadata?: Record<string, unknown>;
}

describe.each(DIALECTS)('add_document_to_journey (%s)', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ storage: await storageFor(dialect), config: { maxDocumentBytes: LIMIT } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('returns the created record and stores it', async () => {
    const journeyId = await newJourney(h);
    const added = await h.ok<Added>('add_document_to_journey', {
      journey_id: journeyId,
      document_type: 'woop_plan',
      title: 'Half marathon',
      content: 'Wish: run 21 km. Outcome: pride. Obstacle: evenings. Plan: if tired, then run at lunch.',
      metadata: { language: 'en', tags: ['running'], version: 2 },
    });
    expect(added).toMatchObject({
      journey_id: journeyId,
      document_type: 'woop_plan',
      title: 'Half marathon',
      content_bytes: 87,
      metadata: { language: 'en', tags: ['running'], version: 2 },
    });
    expect(Math.abs(Date.parse(added.created_at) - Date.now())).toBeLessThan(60_000);
    const [row] = await h.rows('SELECT * FROM documents WHERE id = ?', added.document_id);
    expect(row).toMatchObject({ journey_id: journeyId, document_type: 'woop_plan', title: 'Half marathon' });
    expect(JSON.parse(row!.metadata as string)).toEqual(added.metadata);
    const listed = await history(h, { journey_id: journeyId, include_documents: true });
    expect(listed.documents).toEqual([
      {
        document_id: added.document_id,
        document_type: 'woop_plan',
        title: 'Half marathon',
        created_at: added.created_at,
      },
    ]);
  });

  it('accepts each document type, with only the required fields', async () => {
    const journeyId = await newJourney(h);
    for (const document_type of DOCUMENT_TYPES) {
      const added = await h.ok<Added>('add_document_to_journey', { journey_id: journeyId, document_type });
      expect(added).toMatchObject({ document_type, content_bytes: 0, metadata: {} });
      expect(added).not.toHaveProperty('title');
    }
  });

  it('404 for an unknown journey', async () => {
    const id = randomUUID();
    expect(await h.fails('add_document_to_journey', { journey_id: id, document_type: 'note' })).toEqual({
      status: 404,
      code: 'NOT_FOUND',
      message: `Journey ${id} not found`,
    });
  });

  it('400 with the seed message for an unknown document_type', async () => {
    const journeyId = await newJourney(h);
    for (const document_type of ['pdf', 'Note', '']) {
      expect(await h.fails('add_document_to_journey', { journey_id: journeyId, document_type })).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'document_type must be one of: woop_plan, file_upload, artifact, note',
      });
    }
  });

  it('400 when metadata is not a JSON object', async () => {
    const journeyId = await newJourney(h);
    for (const metadata of [['a'], 'text', 7, null, true]) {
      const error = await h.fails('add_document_to_journey', {
        journey_id: journeyId,
        document_type: 'note',
        metadata,
      });
      expect(error).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'metadata must be a JSON object',
      });
    }
  });

  it('content up to the configured size (UTF-8 bytes) is accepted; one byte more is 400', async () => {
    const journeyId = await newJourney(h);
    const exact = 'é'.repeat(LIMIT / 2);
    const ok = await h.ok<Added>('add_document_to_journey', {
      journey_id: journeyId,
      document_type: 'file_upload',
      content: exact,
    });
    expect(ok.content_bytes).toBe(LIMIT);
    const error = await h.fails('add_document_to_journey', {
      journey_id: journeyId,
      document_type: 'file_upload',
      content: `${exact}x`,
    });
    expect(error).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: `content must be at most ${LIMIT} bytes (UTF-8); it is ${LIMIT + 1} bytes`,
    });
  });

  it('bounds the title and the metadata size', async () => {
    const journeyId = await newJourney(h);
    // The README's limits, written out: a test reading MAX_TITLE_CHARS would move with a wrong constant.
    await h.ok('add_document_to_journey', {
      journey_id: journeyId,
      document_type: 'note',
      title: 't'.repeat(500),
    });
    const longTitle = await h.fails('add_document_to_journey', {
      journey_id: journeyId,
      document_type: 'note',
      title: 't'.repeat(501),
    });
    expect(longTitle.message).toBe('title must be at most 500 characters; it is 501');
    const bigMetadata = await h.fails('add_document_to_journey', {
      journey_id: journeyId,
      document_type: 'note',
      metadata: { blob: 'm'.repeat(MAX_METADATA_BYTES) },
    });
    expect(bigMetadata.status).toBe(400);
    expect(bigMetadata.message).toMatch(/^metadata must be at most 65536 bytes/);
  });
});
