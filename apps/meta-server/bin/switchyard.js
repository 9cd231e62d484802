#!/usr/bin/env node
// The switchyard command. It exists before the build (so installing a clone links it without a warning) and
// starts the compiled server in dist/, which `pnpm build` writes.
import '../dist/bin.js';
