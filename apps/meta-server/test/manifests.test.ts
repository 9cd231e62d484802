import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { PACKAGE_DIR, REPO_ROOT } from './helpers.js';
import { publishedPackages, SERVER_PACKAGES } from './published-packages.js';

const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json';
// A copy of the registry's schema (modelcontextprotocol/registry, docs/reference/server-json), MIT.
const schema = JSON.parse(
  fs.readFileSync(path.join(PACKAGE_DIR, 'manifests', 'server.schema.2025-09-29.json'), 'utf8'),
) as Record<string, unknown>;

interface ServerJson {
  $schema: string;
  name: string;
  description: string;
  version: string;
  packages: {
    registryType: string;
    identifier: string;
    version: string;
    transport: { type: string };
    environmentVariables?: { name: string; isSecret?: boolean }[];
  }[];
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);
const versions = new Map(publishedPackages().map((p) => [p.manifest.name, p] as const));

describe.each(Object.entries(SERVER_PACKAGES))('server.json of %s', (name, { serverJson }) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, serverJson), 'utf8')) as ServerJson;
  const pkg = versions.get(name);

  it('is valid against the MCP registry schema it names', () => {
    expect(manifest.$schema).toBe(SCHEMA_URL);
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
  });

  it('describes the npm package at its current version, over stdio', () => {
    expect(manifest.name).toMatch(/^io\.github\.switchyard-mcp\/[a-z-]+$/);
    expect(pkg?.manifest.mcpName, 'package.json mcpName must equal the manifest name').toBe(manifest.name);
    expect(pkg?.manifest.files).toContain('server.json');
    expect(manifest.version).toBe(pkg?.manifest.version);
    expect(manifest.packages).toEqual([
      expect.objectContaining({
        registryType: 'npm',
        identifier: name,
        version: pkg?.manifest.version,
        transport: { type: 'stdio' },
      }),
    ]);
  });

  it('lists only variables the package documents, and marks keys as secrets', () => {
    const readme = fs.readFileSync(path.join(pkg?.dir ?? '', 'README.md'), 'utf8');
    for (const variable of manifest.packages[0]?.environmentVariables ?? []) {
      expect(readme, `${name} README mentions ${variable.name}`).toContain(variable.name);
      if (/KEY|TOKEN/.test(variable.name)) expect(variable.isSecret, variable.name).toBe(true);
    }
  });
});

it('the registry schema copy rejects what the registry rejects', () => {
  expect(validate({ name: 'no-slash', description: 'x', version: '1.0.0' })).toBe(false);
  expect(validate({ name: 'io.github.a/b', description: 'x'.repeat(101), version: '1.0.0' })).toBe(false);
  expect(
    validate({
      name: 'io.github.a/b',
      description: 'x',
      version: '1.0.0',
      packages: [{ registryType: 'npm', identifier: 'x', version: 'latest', transport: { type: 'stdio' } }],
    }),
  ).toBe(false);
});
