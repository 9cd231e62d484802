#!/usr/bin/env node
// The switchyard-transit command. It exists before the build (so installing a clone links it without a warning) and
// starts the bundled server in dist/bundle/, which `pnpm build` writes.
import '../dist/bundle/bin.js';
