import { ValidationReportSchema } from '@switchyard/contracts/launch-runs';
import type { z } from 'zod';
import { readJsonArtifact } from './artifact-io.js';
import {
  DraftProvenanceSchema,
  EvidenceMapSchema,
  PagePlanSchema,
  PatchBundleSchema,
  PrRecordSchema,
  ProductFactsSchema,
  RepoInventorySchema,
  SnippetCatalogSchema,
  WritingBriefSchema,
  type ProductFacts,
  type SnippetCatalog,
} from './artifact-schemas.js';
import type { ArtifactStore } from './types.js';

/** The JSON artifacts a worker writes for later workers: each one's schema and the worker that writes it. */
export const WORKER_ARTIFACTS = {
  'repo_inventory.json': { schema: RepoInventorySchema, producer: 'W1 (cloneInputs)' },
  'product_facts.json': { schema: ProductFactsSchema, producer: 'W2 (extractFacts)' },
  'evidence_map.json': { schema: EvidenceMapSchema, producer: 'W2 (extractFacts)' },
  'snippet_catalog.json': { schema: SnippetCatalogSchema, producer: 'W3 (catalogSnippets)' },
  'page_plan.json': { schema: PagePlanSchema, producer: 'W4 (planPages)' },
  'writing_brief.json': { schema: WritingBriefSchema, producer: 'W4 (writeWritingBrief)' },
  'draft_provenance.json': { schema: DraftProvenanceSchema, producer: 'W5 (acceptDraft)' },
  'patch_bundle.json': { schema: PatchBundleSchema, producer: 'W6 (linkPages)' },
  'validation_report.json': { schema: ValidationReportSchema, producer: 'W7 (validateSite)' },
  'pr.json': { schema: PrRecordSchema, producer: 'W9 (openPullRequest)' },
} as const;

export type WorkerArtifactName = keyof typeof WORKER_ARTIFACTS;
export type WorkerArtifact<N extends WorkerArtifactName> = z.output<(typeof WORKER_ARTIFACTS)[N]['schema']>;

/**
 * Reads and validates an artifact an earlier worker wrote: ILLEGAL_STATE naming that worker when it is
 * missing, SCHEMA_VALIDATION_FAILED when it breaks its schema.
 */
export function readWorkerArtifact<N extends WorkerArtifactName>(
  artifacts: ArtifactStore,
  name: N,
): Promise<WorkerArtifact<N>> {
  const { schema, producer } = WORKER_ARTIFACTS[name];
  // TypeScript widens the looked-up schema to the union of all of them; the value is the named one's.
  return readJsonArtifact(artifacts, name, schema, producer) as Promise<WorkerArtifact<N>>;
}

/** Like readWorkerArtifact, but undefined when the artifact does not exist (yet). */
export async function readOptionalWorkerArtifact<N extends WorkerArtifactName>(
  artifacts: ArtifactStore,
  name: N,
): Promise<WorkerArtifact<N> | undefined> {
  if ((await artifacts.read(name)) === undefined) return undefined;
  return readWorkerArtifact(artifacts, name);
}

export interface PlanningInputs {
  facts: ProductFacts;
  catalog: SnippetCatalog;
}

/** What planning, drafting and validation build on: the product facts (W2) and the snippet catalog (W3). */
export async function readPlanningInputs(artifacts: ArtifactStore): Promise<PlanningInputs> {
  const facts = await readWorkerArtifact(artifacts, 'product_facts.json');
  const catalog = await readWorkerArtifact(artifacts, 'snippet_catalog.json');
  return { facts, catalog };
}
