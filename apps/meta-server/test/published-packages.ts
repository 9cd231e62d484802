import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './helpers.js';

export interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  files?: string[];
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  mcpName?: string;
  keywords?: string[];
  homepage?: string;
  bugs?: { url?: string };
}

export interface WorkspacePackage {
  dir: string;
  manifest: PackageJson;
}

/** The MCP servers among the published packages, with their bin and where their server.json lives. */
export const SERVER_PACKAGES: Record<string, { bin: string; serverJson: string }> = {
  '@switchyard/server': { bin: 'switchyard', serverJson: 'apps/meta-server/server.json' },
  '@switchyard/transit': {
    bin: 'switchyard-transit',
    serverJson: 'packages/transit/server.json',
  },
  '@switchyard/journey-continuity': {
    bin: 'switchyard-journey',
    serverJson: 'packages/journey-continuity/server.json',
  },
  '@switchyard/launch-runs': {
    bin: 'switchyard-launch',
    serverJson: 'packages/launch-runs/server.json',
  },
};
export const LIBRARY_PACKAGES = [
  '@switchyard/contracts',
  '@switchyard/resilience',
  '@switchyard/server-kit',
  '@switchyard/views',
];

/** Every package of the workspace that is published (not `private`). */
export function publishedPackages(): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of ['packages', 'apps']) {
    for (const entry of fs.readdirSync(path.join(REPO_ROOT, group))) {
      const file = path.join(REPO_ROOT, group, entry, 'package.json');
      if (!fs.existsSync(file)) continue;
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as PackageJson;
      if (manifest.private !== true) found.push({ dir: path.dirname(file), manifest });
    }
  }
  return found.sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}
