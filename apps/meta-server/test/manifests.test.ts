import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { journeyDomain } from '@switchyard/journey-continuity';
import { launchRunsDomain } from '@switchyard/launch-runs';
import { LIMITS, REQUEST_STATE_KEY_VARIABLE, type Env } from '@switchyard/server-kit';
import { transitDomain } from '@switchyard/transit';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/cli.js';
import { planSwitchyard } from '../src/index.js';
import { PACKAGE_DIR, REPO_ROOT } from './helpers.js';
import { publishedPackages, SERVER_PACKAGES } from './published-packages.js';

const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
// A copy of the registry's schema as published at SCHEMA_URL (modelcontextprotocol/registry,
// internal/validators/schemas/2025-12-11.json), MIT; the registry's publisher refuses the older dated ones.
const schema = JSON.parse(
  fs.readFileSync(path.join(PACKAGE_DIR, 'manifests', 'server.schema.2025-12-11.json'), 'utf8'),
) as RegistrySchema;

interface RegistrySchema {
  $id: string;
  definitions: Record<string, { required?: string[] }>;
}

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
    environmentVariables?: { name: string; isSecret?: boolean; isRequired?: boolean }[];
  }[];
}

/**
 * The names `read` looks up in its environment. Both provider keys and a shared database URL are set, so
 * that the settings read only with a key, or only on PostgreSQL, are asked for too.
 */
function variablesRead(read: (env: Env) => unknown): string[] {
  const seen = new Set<string>();
  const values: Record<string, string> = {
    TFL_API_KEY: 'key',
    DIGITRANSIT_SUBSCRIPTION_KEY: 'key',
    SWITCHYARD_DATABASE_URL: 'postgres://user@localhost/db',
  };
  const recording = new Proxy(values, {
    get(target, name) {
      if (typeof name === 'string') seen.add(name);
      return Reflect.get(target, name);
    },
  });
  read(recording);
  return [...seen];
}

/** What server-kit reads for every server over stdio, whatever its domains: data, logs, message and memory bounds. */
const RUNTIME_VARIABLES = [
  'SWITCHYARD_DATA_DIR',
  'SWITCHYARD_LOG_LEVEL',
  'SWITCHYARD_LOG_FORMAT',
  LIMITS.maxArgumentDepth.variable,
  LIMITS.maxAnswerBytes.variable,
  LIMITS.stdioMaxMessageBytes.variable,
  LIMITS.maxYoungGenerationMb.variable,
  LIMITS.heapGrowingPercent.variable,
  REQUEST_STATE_KEY_VARIABLE,
  LIMITS.maxRequestStateBytes.variable,
  LIMITS.requestStateTtlS.variable,
  LIMITS.inputMaxRounds.variable,
  LIMITS.inputRoundTimeoutMs.variable,
  LIMITS.taskTtlMs.variable,
  LIMITS.taskPollIntervalMs.variable,
  LIMITS.taskListenMaxIds.variable,
  LIMITS.taskListensMax.variable,
  LIMITS.taskAfterMs.variable,
];
/** Settings of `--http` only: a registry entry starts the server over stdio. */
const HTTP_ONLY = /^SWITCHYARD_(HTTP|HOST|PORT|TOKEN|ALLOWED_)/;
const domainVariables = (...domains: { config(env: Env): unknown }[]) =>
  domains.flatMap((domain) => variablesRead((env) => domain.config(env)));

/** Every variable each server reads when a client starts it over stdio. */
const STDIO_VARIABLES: Record<string, string[]> = {
  '@switchyard/transit': domainVariables(transitDomain),
  '@switchyard/launch-runs': domainVariables(launchRunsDomain),
  '@switchyard/journey-continuity': domainVariables(journeyDomain),
  '@switchyard/server': [
    ...variablesRead((env) => parseCommandLine([], env)),
    ...domainVariables(transitDomain, launchRunsDomain, journeyDomain),
  ],
};

/** Whether the server starts (reads its configuration without an error) with exactly `env` set. */
const STARTS_WITH: Record<string, (env: Env) => Promise<unknown>> = {
  '@switchyard/transit': async (env) => transitDomain.config(env),
  '@switchyard/launch-runs': async (env) => launchRunsDomain.config(env),
  '@switchyard/journey-continuity': async (env) => journeyDomain.config(env),
  '@switchyard/server': async (env) => {
    const outcome = parseCommandLine([], env);
    if (outcome.action !== 'run') throw new Error(`switchyard would not serve: ${outcome.action}`);
    return planSwitchyard({ ...outcome.settings, env, dataDir: os.tmpdir() });
  },
};
const starts = (name: string, env: Env): Promise<boolean> =>
  (STARTS_WITH[name] ?? (() => Promise.reject(new Error(`no start for ${name}`))))(env).then(
    () => true,
    () => false,
  );

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);
const versions = new Map(publishedPackages().map((p) => [p.manifest.name, p] as const));

describe.each(Object.entries(SERVER_PACKAGES))('server.json of %s', (name, { serverJson }) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, serverJson), 'utf8')) as ServerJson;
  const pkg = versions.get(name);

  it('is valid against the MCP registry schema it names, with every field that schema requires', () => {
    expect(manifest.$schema).toBe(SCHEMA_URL);
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
    for (const field of schema.definitions.ServerDetail?.required ?? [])
      expect(manifest).toHaveProperty(field);
    for (const field of schema.definitions.Package?.required ?? []) {
      for (const registryPackage of manifest.packages) expect(registryPackage).toHaveProperty(field);
    }
  });

  it('marks as required exactly the variables the server cannot start without', async () => {
    const variables = manifest.packages[0]?.environmentVariables ?? [];
    const required = variables.filter((variable) => variable.isRequired === true).map((v) => v.name);
    const set = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, 'set-by-the-test']));
    expect(await starts(name, set(required)), `starts with ${required.join(', ') || 'nothing'} set`).toBe(
      true,
    );
    for (const missing of required) {
      const others = required.filter((variable) => variable !== missing);
      expect(await starts(name, set(others)), `does not start without ${missing}`).toBe(false);
    }
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

  it('lists every variable the server reads over stdio, and no other', () => {
    const listed = (manifest.packages[0]?.environmentVariables ?? []).map((variable) => variable.name);
    const read = new Set(
      [...RUNTIME_VARIABLES, ...(STDIO_VARIABLES[name] ?? [])].filter(
        (variable) => !HTTP_ONLY.test(variable),
      ),
    );
    expect(new Set(listed).size, 'no variable is listed twice').toBe(listed.length);
    expect(new Set(listed)).toEqual(read);
  });

  it('lists only variables the package documents, and marks keys, tokens and database URLs as secrets', () => {
    // The combined server's README leaves each domain's own variables to that domain's README.
    const documentedIn = name === '@switchyard/server' ? Object.keys(SERVER_PACKAGES) : [name];
    const readmes = documentedIn
      .map((documenting) =>
        fs.readFileSync(path.join(versions.get(documenting)?.dir ?? '', 'README.md'), 'utf8'),
      )
      .join('\n');
    for (const variable of manifest.packages[0]?.environmentVariables ?? []) {
      expect(readmes, `${documentedIn.join(' or ')} README mentions ${variable.name}`).toContain(
        variable.name,
      );
      // Keys, tokens and database URLs (they carry the password) are secrets; LAUNCH_PR_TOKEN_ENV names one.
      if (/_(KEY|TOKEN|DATABASE_URL)$/.test(variable.name))
        expect(variable.isSecret, variable.name).toBe(true);
    }
  });
});

it('the registry schema copy rejects what the registry rejects', () => {
  expect(schema.$id).toBe(SCHEMA_URL);
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
