// The root entry: shared error kinds and tables flat, each domain's contracts as a namespace (their names
// overlap: every domain has a Warning, an input and an output). Subpaths import one domain directly.
export * from './errors/index.js';
export * as transit from './transit/index.js';
export * as launchRuns from './launch-runs/index.js';
export * as journey from './journey/index.js';
