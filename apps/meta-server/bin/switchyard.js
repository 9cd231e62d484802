#!/usr/bin/env node
// The switchyard command. It exists before the build (so installing a clone links it without a warning) and
// starts the bundled server in dist/bundle/, which `pnpm build` writes; on a Node too old for it, it says so
// instead (a static import would load the server first). The Node check is bundled too (server-kit's
// node-version): the bundle is this package's only code, so nothing else needs installing.
import { nodeIsSupported } from '../dist/bundle/node-version.js';

if (nodeIsSupported('switchyard')) await import('../dist/bundle/bin.js');
