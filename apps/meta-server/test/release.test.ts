import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT, tempDir } from './helpers.js';
import { publishedPackages, SERVER_PACKAGES } from './published-packages.js';

const run = promisify(execFile);

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  if?: string;
  run?: string;
  with?: Record<string, string | number>;
  env?: Record<string, string>;
}

interface Workflow {
  permissions: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

const WORKFLOW_FILE = path.join(REPO_ROOT, '.github', 'workflows', 'release.yml');
const workflowText = fs.readFileSync(WORKFLOW_FILE, 'utf8');
const workflow = parse(workflowText) as Workflow;
const steps = workflow.jobs.release?.steps ?? [];
const rootScripts = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

describe('the release workflow', () => {
  it('publishes to npm by trusted publishing: an OIDC token, no npm token anywhere', () => {
    expect(workflow.permissions['id-token']).toBe('write');
    expect(workflowText).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|_authToken/);
    // The only secret it reads is the workflow's own GitHub token (for the version pull request and tags).
    expect(workflowText.match(/secrets\.\w+/g) ?? []).toEqual(['secrets.GITHUB_TOKEN']);
    // setup-node's registry-url would write an .npmrc that expects a token.
    const setupNode = steps.find((step) => step.uses?.startsWith('actions/setup-node'));
    expect(setupNode?.with?.['registry-url']).toBeUndefined();
    expect(Number(setupNode?.with?.['node-version'])).toBeGreaterThanOrEqual(24);

    const changesets = steps.find((step) => step.uses?.startsWith('changesets/action'));
    expect(changesets?.with?.publish).toContain('pnpm release');
    expect(changesets?.env?.NPM_CONFIG_PROVENANCE).toBe('true');
    // `pnpm publish` (changeset publish under pnpm) does not exchange the OIDC token: plain npm publishes.
    expect(rootScripts.release).toContain('node scripts/publish-packages.mjs');
    expect(rootScripts.release).not.toContain('changeset publish');
    const script = fs.readFileSync(path.join(REPO_ROOT, 'scripts', 'publish-packages.mjs'), 'utf8');
    expect(script).toContain("['publish', tarball");
    expect(script).toContain('New tag: ');
  });

  it('after npm, logs in to the MCP registry with the same OIDC token and publishes each server.json', () => {
    const publishAt = steps.findIndex((step) => step.uses?.startsWith('changesets/action'));
    const changesetsId = steps[publishAt]?.id;
    expect(changesetsId).toBeDefined();
    const registryAt = steps.findIndex((step) => step.run?.includes('scripts/publish-mcp-registry.mjs'));
    expect(registryAt).toBeGreaterThan(publishAt);
    const registry = steps[registryAt];
    expect(registry?.run).toMatch(/mcp-publisher login github-oidc\n.*publish-mcp-registry\.mjs/);
    expect(registry?.if).toBe(`steps.${changesetsId}.outputs.published == 'true'`);
    expect(registry?.env?.PUBLISHED_PACKAGES).toBe(`\${{ steps.${changesetsId}.outputs.publishedPackages }}`);
    const install = steps.find((step) => step.run?.includes('mcp-publisher_'));
    expect(steps.indexOf(install ?? {})).toBeGreaterThan(publishAt);
  });
});

describe('scripts/publish-mcp-registry.mjs', () => {
  const versions = new Map(publishedPackages().map((p) => [p.manifest.name, p.manifest.version] as const));

  /** Runs the script with a publisher that records its arguments; returns them and the exit code. */
  async function publishWith(published: { name: string; version: string }[]) {
    const dir = tempDir('mcp-publisher-');
    const calls = path.join(dir, 'calls');
    const publisher = path.join(dir, 'mcp-publisher');
    fs.writeFileSync(publisher, `#!/bin/sh\necho "$@" >> "${calls}"\n`, { mode: 0o755 });
    const outcome = await run(
      process.execPath,
      [path.join(REPO_ROOT, 'scripts', 'publish-mcp-registry.mjs')],
      {
        env: { ...process.env, PUBLISHED_PACKAGES: JSON.stringify(published), MCP_PUBLISHER: publisher },
      },
    ).then(
      () => 0,
      (error: { code?: number }) => error.code ?? -1,
    );
    const recorded = fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : [];
    return { code: outcome, calls: recorded };
  }

  it("publishes the server.json of each published server at that version, and no library's", async () => {
    const published = ['@switchyard/contracts', '@switchyard/transit', '@switchyard/server'].map((name) => ({
      name,
      version: versions.get(name) ?? '',
    }));
    const { code, calls } = await publishWith(published);
    expect(code).toBe(0);
    expect(calls).toEqual(
      ['@switchyard/transit', '@switchyard/server'].map(
        (name) => `publish ${path.join(REPO_ROOT, SERVER_PACKAGES[name]?.serverJson ?? '')}`,
      ),
    );
  });

  it('sends nothing for a server whose server.json is not at the published version, and fails', async () => {
    const { code, calls } = await publishWith([{ name: '@switchyard/launch-runs', version: '99.0.0' }]);
    expect(code).toBe(1);
    expect(calls).toEqual([]);
  });
});
