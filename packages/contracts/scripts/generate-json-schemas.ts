// Writes packages/contracts/schemas/*.json from the zod schemas. Run after changing a contract:
//   pnpm --filter @switchyard/contracts schemas:generate
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateJsonSchemas } from './json-schemas.js';

const schemasDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'schemas');
fs.rmSync(schemasDir, { recursive: true, force: true });
fs.mkdirSync(schemasDir, { recursive: true });
const files = generateJsonSchemas();
for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(schemasDir, name), content);
console.log(`wrote ${Object.keys(files).length} schemas to ${path.relative(process.cwd(), schemasDir)}`);
