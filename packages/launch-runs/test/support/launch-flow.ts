import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RunConfigInput, ValidationReport } from '@switchyard/contracts/launch-runs';
import { exampleRunConfig } from '../../src/pipeline/index.js';
import { errorOf } from '@switchyard/server-kit/testing';
import { type Harness } from './harness.js';

/** The run_config of the README walk-through (exampleRunConfig), with `overrides`. */
export function exampleConfig(
  repos: { sourceRepo: string; siteRepo: string },
  overrides: Partial<RunConfigInput> = {},
): RunConfigInput {
  return { ...exampleRunConfig(repos), ...overrides };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
}

/** A plain folder as a git repository with one commit (fixed identity and date). */
export function commitFolder(dir: string, message: string): void {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@switchyard.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@switchyard.invalid',
    GIT_AUTHOR_DATE: '2025-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2025-01-01T00:00:00Z',
  };
  for (const args of [
    ['init', '--quiet'],
    ['add', '-A'],
    ['commit', '--quiet', '--no-gpg-sign', '-m', message],
  ]) {
    execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd: dir, env, encoding: 'utf8' });
  }
}

/** Fixes until the run is READY_FOR_PR; returns the fixed issue ids. */
export async function fixUntilReady(h: Harness, runId: string, limit = 20): Promise<string[]> {
  const fixed: string[] = [];
  for (let i = 0; i < limit; i += 1) {
    const status = (await h.call('launch_get_status', { run_id: runId })).structured.status as {
      state: string;
    };
    if (status.state !== 'VALIDATING') return fixed;
    const payload = (await h.call('launch_fix_next', { run_id: runId })).structured;
    if (payload.ok !== true) errorOf(payload, 'none');
    fixed.push(payload.fixed_issue_id as string);
  }
  return fixed;
}

export async function artifactText(h: Harness, runId: string, name: string): Promise<string> {
  const payload = (await h.call('launch_get_artifact', { run_id: runId, artifact_name: name })).structured;
  if (payload.ok !== true) errorOf(payload, 'none');
  return (payload.artifact as { content: string }).content;
}

interface EvidenceMap {
  claims: Record<
    string,
    { evidence: { path: string; line_start: number; line_end: number; sha256: string }[] }
  >;
}

const MARKER = /<!--\s*claim_id:\s*(c_[0-9a-f]+)\s*-->/g;

/**
 * Independent of the gates: every claim marker on the launch branch's pages resolves to a claim of
 * evidence_map.json, and each of its evidence ranges hashes to the lines of the source repository.
 * Returns the number of markers checked.
 */
export function checkBranchClaims(options: {
  siteRepo: string;
  branch: string;
  baseRef: string;
  sourceDir: string;
  evidenceMap: EvidenceMap;
  workDir: string;
}): { pages: string[]; markers: number } {
  const clone = path.join(options.workDir, 'branch-check');
  fs.rmSync(clone, { recursive: true, force: true });
  git(options.workDir, 'clone', '--quiet', '--branch', options.branch, '--', options.siteRepo, clone);
  const changed = git(clone, 'diff', '--name-only', `origin/${options.baseRef}`, 'HEAD')
    .split('\n')
    .filter((file) => file.endsWith('.md'));
  let markers = 0;
  for (const page of changed) {
    const text = fs.readFileSync(path.join(clone, page), 'utf8');
    for (const match of text.matchAll(MARKER)) {
      markers += 1;
      const claim = options.evidenceMap.claims[match[1] ?? ''];
      if (claim === undefined) throw new Error(`${page}: marker ${match[1]} points nowhere`);
      for (const evidence of claim.evidence) {
        const lines = fs.readFileSync(path.join(options.sourceDir, evidence.path), 'utf8').split('\n');
        const cited = lines.slice(evidence.line_start - 1, evidence.line_end).join('\n');
        const sha = createHash('sha256').update(cited).digest('hex');
        if (sha !== evidence.sha256)
          throw new Error(`${page}: evidence of ${match[1]} does not match ${evidence.path}`);
      }
    }
  }
  return { pages: changed, markers };
}

export function gate(report: ValidationReport, name: string) {
  return report.gates.find((g) => g.name === name);
}

/** Masks what is timing, not content, in a validation report (gate durations). */
export function maskTimings(reportText: string): unknown {
  const report = JSON.parse(reportText) as { gates: { duration_ms: number }[] };
  return { ...report, gates: report.gates.map((g) => ({ ...g, duration_ms: 0 })) };
}
