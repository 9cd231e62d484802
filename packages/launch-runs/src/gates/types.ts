import type { GateName, RunConfig, Severity } from '@switchyard/contracts/launch-runs';
import type { EvidenceMap, ProductFacts, SnippetCatalog } from '../pipeline/artifact-schemas.js';
import type { PageDoc } from './page-doc.js';
import type { SiteIndex } from './site-index.js';

/** A problem a gate found, before it gets its stable id and status. */
export interface IssueDraft {
  severity: Severity;
  error_code: string;
  message: string;
  path: string;
  line: number;
  suggested_fix: string | null;
}

export interface GateContext {
  config: RunConfig;
  siteRoot: string;
  contentRoot: string;
  /** The pages the run answers for: Markdown files under content_root that match allowed_paths. */
  pages: readonly PageDoc[];
  site: SiteIndex;
  evidence: EvidenceMap;
  catalog: SnippetCatalog;
  facts: ProductFacts;
  signal: AbortSignal;
}

export interface Gate {
  name: GateName;
  run(context: GateContext): Promise<IssueDraft[]> | IssueDraft[];
}
