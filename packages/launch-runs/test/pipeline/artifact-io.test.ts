import { describe, expect, it } from 'vitest';
import { readWorkerArtifact } from '../../src/pipeline/worker-artifacts.js';
import { failure, MemoryArtifactStore } from './helpers.js';

/** A page plan whose first section names no section of the contract. */
const BROKEN_PLAN = {
  schema_version: '1.0',
  product: { slug: 'p', name: 'P' },
  content_root: 'content',
  sections: [{ section: 'not-a-section', page_ids: [] }],
  pages: [],
};

describe('reading an artifact an earlier worker wrote', () => {
  it('a missing one is ILLEGAL_STATE naming the worker that writes it', async () => {
    const error = await failure(readWorkerArtifact(new MemoryArtifactStore(), 'page_plan.json'));
    expect(error.code).toBe('ILLEGAL_STATE');
    expect(error.details).toEqual({ missing_artifact: 'page_plan.json', required_worker: 'W4 (planPages)' });
  });

  it('one that is not JSON is SCHEMA_VALIDATION_FAILED', async () => {
    const artifacts = new MemoryArtifactStore();
    await artifacts.write('page_plan.json', '{"schema_version":');
    const error = await failure(readWorkerArtifact(artifacts, 'page_plan.json'));
    expect(error.code).toBe('SCHEMA_VALIDATION_FAILED');
    expect(error.message).toBe('Artifact page_plan.json fails schema validation: not valid JSON');
  });

  it('one that breaks its schema is SCHEMA_VALIDATION_FAILED naming the field as a caller writes it', async () => {
    const artifacts = new MemoryArtifactStore();
    await artifacts.write('page_plan.json', JSON.stringify(BROKEN_PLAN));
    const error = await failure(readWorkerArtifact(artifacts, 'page_plan.json'));
    expect(error.code).toBe('SCHEMA_VALIDATION_FAILED');
    expect(error.details).toEqual({ artifact: 'page_plan.json' });
    expect(error.message).toMatch(
      /^Artifact page_plan\.json fails schema validation: sections\[0\]\.section: /,
    );
  });
});
