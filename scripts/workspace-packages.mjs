// The workspace's packages as the release scripts read them: each folder of packages/ and apps/ that has a
// package.json, with that manifest and, for an MCP server, its server.json.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `{ dir, manifest, serverFile? }` for every workspace package under `rootDir`, in folder order. */
export function workspacePackages(rootDir = root) {
  const found = [];
  for (const group of ['packages', 'apps']) {
    for (const entry of fs.readdirSync(path.join(rootDir, group)).sort()) {
      const dir = path.join(rootDir, group, entry);
      const file = path.join(dir, 'package.json');
      if (!fs.existsSync(file)) continue;
      const serverFile = path.join(dir, 'server.json');
      found.push({
        dir,
        manifest: JSON.parse(fs.readFileSync(file, 'utf8')),
        serverFile: fs.existsSync(serverFile) ? serverFile : undefined,
      });
    }
  }
  return found;
}
