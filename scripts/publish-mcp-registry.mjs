#!/usr/bin/env node
// Publishes the server.json of each MCP server that the release just put on npm to the MCP registry (the
// release workflow's step after npm, once `mcp-publisher login github-oidc` has logged in). Which packages
// were published comes from PUBLISHED_PACKAGES, changesets/action's `publishedPackages` output
// (`[{"name":"@switchyard/transit","version":"0.2.0"}]`); the registry checks that the npm package of that
// version exists and names the server (package.json `mcpName`), so npm must come first. MCP_PUBLISHER is the
// publisher's path (default `mcp-publisher` on PATH).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root, workspacePackages } from './workspace-packages.mjs';

const published = JSON.parse(process.env.PUBLISHED_PACKAGES || '[]');
const publisher = process.env.MCP_PUBLISHER || 'mcp-publisher';
/** Each MCP server's server.json, by its package's name. */
const files = new Map(
  workspacePackages()
    .filter(({ serverFile }) => serverFile !== undefined)
    .map(({ manifest, serverFile }) => [manifest.name, serverFile]),
);
let failed = 0;
for (const { name, version } of published) {
  const serverFile = files.get(name);
  if (serverFile === undefined) continue; // a library, not a server
  const entry = JSON.parse(fs.readFileSync(serverFile, 'utf8'));
  const relative = path.relative(root, serverFile);
  if (entry.version !== version) {
    console.error(`${relative} is at ${entry.version}, but ${name}@${version} was published: not sent`);
    failed += 1;
    continue;
  }
  console.log(`${relative}: ${entry.name}@${version} to the MCP registry`);
  try {
    execFileSync(publisher, ['publish', serverFile], { stdio: 'inherit' });
  } catch {
    failed += 1;
  }
}
process.exit(failed > 0 ? 1 : 0);
