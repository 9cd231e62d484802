#!/usr/bin/env node
// Keeps each MCP server's server.json (the MCP registry entry) at its package's version: run after
// `changeset version` (the root `version-packages` script does). `--check` only reports drift (exit 1).
import fs from 'node:fs';
import path from 'node:path';
import { root, workspacePackages } from './workspace-packages.mjs';

const check = process.argv.includes('--check');
let drift = 0;
for (const { manifest, serverFile } of workspacePackages()) {
  if (serverFile === undefined) continue;
  const { version, name } = manifest;
  const server = JSON.parse(fs.readFileSync(serverFile, 'utf8'));
  const stale = server.version !== version || server.packages.some((p) => p.version !== version);
  if (!stale) continue;
  drift += 1;
  if (check) {
    console.error(`${path.relative(root, serverFile)} is not at ${name}@${version}`);
    continue;
  }
  server.version = version;
  for (const registryPackage of server.packages) registryPackage.version = version;
  fs.writeFileSync(serverFile, `${JSON.stringify(server, null, 2)}\n`);
  console.log(`${path.relative(root, serverFile)} -> ${version}`);
}
process.exit(check && drift > 0 ? 1 : 0);
