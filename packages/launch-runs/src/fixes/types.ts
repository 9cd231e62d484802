import type { RunConfig, ValidationIssue } from '@switchyard/contracts/launch-runs';
import type { PageDoc } from '../gates/page-doc.js';
import type { SiteIndex } from '../gates/site-index.js';
import type { EvidenceMap, PagePlan, ProductFacts, SnippetCatalog } from '../pipeline/artifact-schemas.js';

/** Everything a fix may look at: the issue, the file it concerns, and the run's plan and facts. */
export interface FixInput {
  issue: ValidationIssue;
  page: PageDoc;
  config: RunConfig;
  contentRoot: string;
  siteRoot: string;
  site: SiteIndex;
  plan: PagePlan;
  facts: ProductFacts;
  evidence: EvidenceMap;
  catalog: SnippetCatalog;
}

/** A fix's result: the file's new text (identical text = the fix changed nothing) and what it did. */
export interface FixOutcome {
  kind: string;
  text: string;
  description: string;
}

export type Fixer = (input: FixInput) => FixOutcome | Promise<FixOutcome>;
