import { SectionSchema } from '@switchyard/contracts/launch-runs';
import { z } from 'zod';

/**
 * Schemas of the artifacts the workers hand to each other. A worker reading an earlier worker's artifact
 * validates it here, so a damaged file is a SCHEMA_VALIDATION_FAILED error instead of a crash.
 */

const sha = z.string().regex(/^[0-9a-f]{64}$/);

/** A tracked file; one above the hash limit has `sha256: null` and says why in `not_hashed`. */
export const InventoryFileSchema = z.object({
  path: z.string(),
  size: z.number().int().min(0),
  sha256: sha.nullable(),
  not_hashed: z.string().optional(),
});
export type InventoryFile = z.infer<typeof InventoryFileSchema>;

/** A file a worker did not read because it is larger than LAUNCH_MAX_FILE_BYTES. */
export const SkippedFileSchema = z.object({
  path: z.string(),
  size: z.number().int().min(0),
  reason: z.string(),
});
export type SkippedFile = z.infer<typeof SkippedFileSchema>;

export const RepoInventorySchema = z.object({
  schema_version: z.literal('1.0'),
  source: z.object({
    ref: z.string().nullable(),
    sha: z.string(),
    committed_at: z.string(),
    files: z.array(InventoryFileSchema),
  }),
  site: z.object({
    base_ref: z.string(),
    sha: z.string(),
    files: z.array(InventoryFileSchema),
  }),
});
export type RepoInventory = z.infer<typeof RepoInventorySchema>;

export const EvidenceSchema = z.object({
  path: z.string(),
  line_start: z.number().int().min(1),
  line_end: z.number().int().min(1),
  sha256: sha,
});
export type Evidence = z.infer<typeof EvidenceSchema>;

export const CLAIM_KINDS = [
  'package_name',
  'version',
  'license',
  'description',
  'install',
  'runtime',
  'repository',
  'homepage',
  'command',
  'title',
  'summary',
  'feature',
  'install_note',
  'usage',
  'api',
  'faq',
  'release',
  'change',
] as const;
export const ClaimKindSchema = z.enum(CLAIM_KINDS);
export type ClaimKind = z.infer<typeof ClaimKindSchema>;

export const ClaimSchema = z.object({
  claim_id: z.string().regex(/^c_[0-9a-f]{12}$/),
  kind: ClaimKindSchema,
  text: z.string().min(1),
  /** Headings above the claim in its source, from its section heading down (an API entry, a FAQ question). */
  topics: z.array(z.string()),
  style: z.enum(['sentence', 'bullet']),
  source: z.object({ path: z.string(), line: z.number().int().min(1) }),
  /**
   * Snippet ids of the code blocks this sentence leads into (it ends with ':' right before them in its
   * source): a page carries it only directly above one of them. Absent for every other claim.
   */
  introduces: z.array(z.string()).optional(),
});
export type Claim = z.infer<typeof ClaimSchema>;

export const ProductFactsSchema = z.object({
  schema_version: z.literal('1.0'),
  product: z.object({
    name: z.string(),
    slug: z.string(),
    package_name: z.string().nullable(),
    ecosystem: z.enum(['npm', 'pypi', 'cargo', 'go']).nullable(),
    version: z.string().nullable(),
    license: z.string().nullable(),
    install_command: z.string().nullable(),
    repository_url: z.string().nullable(),
  }),
  claims: z.array(ClaimSchema),
  /** Source files W2 left out for their size (they give no claims); absent when none. */
  skipped_files: z.array(SkippedFileSchema).optional(),
});
export type ProductFacts = z.infer<typeof ProductFactsSchema>;

export const EvidenceMapSchema = z.object({
  schema_version: z.literal('1.0'),
  source_sha: z.string(),
  claims: z.record(
    z.string(),
    z.object({ kind: ClaimKindSchema, text: z.string(), evidence: z.array(EvidenceSchema).min(1) }),
  ),
});
export type EvidenceMap = z.infer<typeof EvidenceMapSchema>;

export const SnippetSchema = z.object({
  snippet_id: z.string().regex(/^s_[0-9a-f]{12}$/),
  language: z.string(),
  /** fence: the info string gave it; inferred: guessed from the content; unknown: marked `text`. */
  language_source: z.enum(['fence', 'extension', 'inferred', 'unknown']),
  content: z.string(),
  /** Headings above the snippet in its source, from its section heading down. */
  topics: z.array(z.string()),
  section: z.string(),
  provenance: z.array(EvidenceSchema).min(1),
});
export type Snippet = z.infer<typeof SnippetSchema>;

export const SnippetCatalogSchema = z.object({
  schema_version: z.literal('1.0'),
  snippets: z.array(SnippetSchema),
  /** Source files W3 left out for their size (they give no snippets); absent when none. */
  skipped_files: z.array(SkippedFileSchema).optional(),
});
export type SnippetCatalog = z.infer<typeof SnippetCatalogSchema>;

export const OutlineItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heading'), level: z.number().int().min(2).max(4), text: z.string() }),
  z.object({ type: z.literal('claim'), claim_id: z.string(), style: z.enum(['paragraph', 'bullet']) }),
  z.object({ type: z.literal('snippet'), snippet_id: z.string() }),
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('links'), heading: z.string(), page_ids: z.array(z.string()) }),
]);
export type OutlineItem = z.infer<typeof OutlineItemSchema>;

export const PlannedPageSchema = z.object({
  page_id: z.string(),
  section: SectionSchema,
  template: z.string(),
  title: z.string(),
  description: z.string(),
  weight: z.number().int(),
  /** Site-relative file path, e.g. content/docs/tallyho/installation.md. */
  path: z.string(),
  url_path: z.string(),
  draft: z.string(),
  claim_ids: z.array(z.string()),
  snippet_ids: z.array(z.string()),
  links: z.array(z.string()),
  outline: z.array(OutlineItemSchema),
});
export type PlannedPage = z.infer<typeof PlannedPageSchema>;

export const PagePlanSchema = z.object({
  schema_version: z.literal('1.0'),
  product: z.object({ slug: z.string(), name: z.string() }),
  content_root: z.string(),
  sections: z.array(z.object({ section: SectionSchema, page_ids: z.array(z.string()) })),
  pages: z.array(PlannedPageSchema),
});
export type PagePlan = z.infer<typeof PagePlanSchema>;

export const PatchSchema = z.object({
  patch_id: z.string(),
  op: z.enum(['create', 'update']),
  path: z.string(),
  page_id: z.string(),
  base_sha256: sha.nullable(),
  sha256: sha,
  front_matter_keys: z.array(z.string()),
  content: z.string(),
});
export type Patch = z.infer<typeof PatchSchema>;

export const PatchBundleSchema = z.object({
  schema_version: z.literal('1.0'),
  base_sha: z.string(),
  patches: z.array(PatchSchema),
});
export type PatchBundle = z.infer<typeof PatchBundleSchema>;

/** A file W8 rewrote: its sha256 before and after, and (since fix records keep it) its new content. */
export const FixPatchSchema = z.object({
  patch_id: z.string(),
  op: z.literal('update'),
  path: z.string(),
  before_sha256: sha,
  after_sha256: sha,
  /** Absent in records written before workspaces could be rebuilt from them. */
  content: z.string().optional(),
});
export type FixPatch = z.infer<typeof FixPatchSchema>;

/** `fix_<issue_id>.json`, besides the fix's own fields (gate, error_code, location, fix_kind, description). */
export const FixRecordSchema = z.object({
  schema_version: z.literal('1.0'),
  issue_id: z.string(),
  changed: z.boolean(),
  patches: z.array(FixPatchSchema),
});
export type FixRecord = z.infer<typeof FixRecordSchema>;

export const PrRecordSchema = z.object({
  schema_version: z.literal('1.0'),
  provider: z.enum(['local', 'github']),
  pr_url: z.string(),
  branch: z.string(),
  commit_sha: z.string(),
  base_ref: z.string(),
  base_sha: z.string(),
  number: z.number().int().nullable(),
  pages: z.array(z.string()),
});
export type PrRecord = z.infer<typeof PrRecordSchema>;

const BriefSourcesSchema = z.array(z.string());

/** One page of `writing_brief.json` (see writing-brief.ts). */
export const WritingBriefPageSchema = z.object({
  page_id: z.string(),
  section: SectionSchema,
  title: z.string(),
  purpose: z.string(),
  path: z.string(),
  url_path: z.string(),
  /** The lead (heading null), then each level-2 section of the plan, with what it draws on. */
  sections: z.array(
    z.object({
      heading: z.string().nullable(),
      claim_ids: z.array(z.string()),
      snippet_ids: z.array(z.string()),
    }),
  ),
  /** The only evidence the page may cite: the plan's claims for the page and the product-wide claims. */
  evidence: z.array(
    z.object({
      claim_id: z.string(),
      kind: ClaimKindSchema,
      quote: z.string(),
      topics: z.array(z.string()),
      /** `path:line` or `path:start-end` in the source repository. */
      sources: BriefSourcesSchema,
    }),
  ),
  snippets: z.array(
    z.object({
      snippet_id: z.string(),
      language: z.string(),
      content: z.string(),
      topics: z.array(z.string()),
      sources: BriefSourcesSchema,
      /** The claim whose sentence introduces this snippet in the source, if any. */
      lead_in_claim_id: z.string().nullable(),
    }),
  ),
  links: z.array(z.object({ page_id: z.string(), title: z.string(), url_path: z.string() })),
  must_not_claim: z.array(z.string()),
});
export type WritingBriefPage = z.infer<typeof WritingBriefPageSchema>;

export const WritingBriefSchema = z.object({
  schema_version: z.literal('1.0'),
  product: ProductFactsSchema.shape.product.omit({ ecosystem: true }),
  /** The marker syntax, with the id as a placeholder. */
  markers: z.object({ claim: z.string(), snippet: z.string() }),
  rules: z.array(z.string()),
  pages: z.array(WritingBriefPageSchema),
});
export type WritingBrief = z.infer<typeof WritingBriefSchema>;

/** How a model's draft reached the run: launch_submit_draft, or the run's task asking the client's model. */
export const DraftChannelSchema = z.enum(['tool', 'sampling']);
export type DraftChannel = z.infer<typeof DraftChannelSchema>;

/**
 * `draft_provenance.json` (model drafting): per drafted page, who wrote it and the verifier's verdicts. A page
 * the client's model could not write within LAUNCH_DRAFT_MAX_ROUNDS is extractive, with the `fallback` saying why.
 */
export const DraftProvenanceSchema = z.object({
  schema_version: z.literal('1.0'),
  pages: z.record(
    z.string(),
    z.object({
      written_by: z.enum(['model', 'extractive']),
      /** For `model`: how its draft came in. */
      via: DraftChannelSchema.optional(),
      /** For `extractive` in a model-drafting run: the model's drafts refused round after round. */
      fallback: z.object({ rounds: z.number(), reason: z.string() }).optional(),
      sentences: z.array(
        z.object({
          line: z.number(),
          sentence: z.string(),
          claim_ids: z.array(z.string()),
          accepted: z.boolean(),
          codes: z.array(z.string()),
        }),
      ),
    }),
  ),
});
export type DraftProvenance = z.infer<typeof DraftProvenanceSchema>;
