// The workers W1..W9 and, through them, everything heavy the pipeline uses (markdownlint, markdown-it, yaml,
// simple-git, smol-toml, jsonc-parser, diff, picomatch). Imported only by `loadWorkers` (lazy-pipeline.ts),
// when a run first executes a worker, so a server answers `initialize` without loading any of it.
export { cloneInputs } from './inputs.js';
export { extractFacts } from './facts/extract.js';
export { catalogSnippets } from './snippets.js';
export { planPages } from './plan.js';
export { draftPages } from './draft.js';
export { acceptDraft, fallBackDraft, publishWritingBrief } from './model-draft.js';
export { linkPages } from './link.js';
export { validateSite } from './validate.js';
export { applyFix, planFix } from './fix.js';
export { openPullRequest } from './open-pr.js';
export { restoreWorkspace } from './restore.js';
