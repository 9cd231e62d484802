#!/usr/bin/env node
// The switchyard-transit command. It exists before the build (so installing a clone links it without a warning) and
// starts the bundled server in dist/bundle/, which `pnpm build` writes; on a Node too old for it, it says so
// instead (a static import would load the server first).
import { nodeIsSupported } from '@switchyard/server-kit/node-version';

if (nodeIsSupported('switchyard-transit')) await import('../dist/bundle/bin.js');
