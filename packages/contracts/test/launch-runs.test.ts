import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { LaunchErrorPayloadSchema } from '../src/errors/index.js';
import {
  ArtifactResponseSchema,
  DEFAULT_COMMIT_IDENTITY,
  GATES,
  LAUNCH_TOOL_SCHEMAS,
  LaunchCancelInputSchema,
  LaunchCancelOutputSchema,
  LaunchFixNextInputSchema,
  LaunchFixNextOutputSchema,
  LaunchGetArtifactInputSchema,
  LaunchGetStatusInputSchema,
  LAUNCH_TOOL_STATES,
  LaunchGetStatusOutputSchema,
  LaunchListRunsInputSchema,
  LaunchListRunsOutputSchema,
  LaunchOpenPrInputSchema,
  LaunchOpenPrOutputSchema,
  LaunchResumeInputSchema,
  LaunchResumeOutputSchema,
  LaunchStartRunInputSchema,
  LaunchStartRunOutputSchema,
  LaunchValidateInputSchema,
  LaunchValidateOutputSchema,
  RUN_STATES,
  RunConfigSchema,
  RunStatusSchema,
  SECTION_STATES,
  SEVERITIES,
  STABLE_STATES,
  TERMINAL_STATES,
  ValidationIssueSchema,
  ValidationReportSchema,
} from '../src/launch-runs/index.js';

// ---------------------------------------------------------------------------------------------------------
// The JSON examples of seed 002, copied verbatim and in order (the seed lives outside the repository; when
// it is present, the last test checks these copies against it).
//
// Only the standard error shape is a complete example. Every other block is abridged by the seed itself:
// - `"r_..."` / `"..."` stand for a run id, a sha256, a URL, a commit sha, a slug or a timestamp; they are
//   not values of those types (`"r_..."` is 5 characters, a run_id needs 8..64), so the schemas reject them
//   where they stand (checked below, at the path of the placeholder);
// - `{ "...": "RunStatus" }`, `{ "...": "validation_report.schema.json" }`, `{ "...": "latest report" }` and
//   `{ "...": "validated against run_config.schema.json" }` stand for a whole object of that type;
// - `"optional"` in the list_runs filter marks an optional field, it is not a state.
// Each abridged example is parsed after replacing exactly its placeholders with concrete values of the type
// the placeholder names (`fill`); nothing else in the example is changed and no field is added.
// ---------------------------------------------------------------------------------------------------------

const RUN_ID = 'r_2026-01-21T10-00-00Z_abcd1234';
const SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const COMMIT_SHA = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const ISO = '2026-01-21T10:00:00.000Z';

const VALIDATION_REPORT = {
  schema_version: '1.0',
  ok: false,
  profile: 'local',
  gates: [{ name: 'TruthLock', ok: false, duration_ms: 3 }],
  issues: [
    {
      issue_id: 'iss_001',
      gate: 'TruthLock',
      severity: 'blocker',
      error_code: 'UNCITED_CLAIM',
      message: 'Uncited claim',
      location: { path: 'content/docs/index.md', line: 12 },
      status: 'OPEN',
      suggested_fix: null,
    },
  ],
};

const RUN_CONFIG = {
  schema_version: '1.0',
  product_slug: 'example-product',
  product_name: 'Example Product',
  source: { repo: '/tmp/source' },
  site: { repo: '/tmp/site' },
  allowed_paths: ['content/**'],
};

type Json = unknown;
const clone = (value: Json): Record<string, unknown> => structuredClone(value) as Record<string, unknown>;

interface SeedExample {
  title: string;
  json: string;
  schema: z.ZodType;
  /** Abridged examples: replaces the seed's placeholders (see the header). Absent for complete examples. */
  fill?: (value: Record<string, unknown>) => Json;
  /** Where the unfilled placeholders are rejected (path of the first placeholder the schema sees). */
  rejectedAt?: PropertyKey[];
}

const RUN_STATUS_JSON = `{
  "run_id": "r_2026-01-21T10-00-00Z_abcd",
  "state": "VALIDATING",
  "section_states": { "products": "DONE", "docs": "DRAFTED" },
  "open_issues": [
    { "issue_id": "iss_001", "severity": "blocker", "gate": "TruthLock", "title": "Uncited claim" }
  ],
  "artifacts": [
    { "name": "page_plan.json", "sha256": "..." },
    { "name": "validation_report.json", "sha256": "..." }
  ]
}
`;
const fillRunStatus = (value: Record<string, unknown>) => ({
  ...value,
  artifacts: (value.artifacts as { name: string }[]).map((a) => ({ ...a, sha256: SHA256 })),
});
const FILLED_RUN_STATUS = fillRunStatus(JSON.parse(RUN_STATUS_JSON) as Record<string, unknown>);
const fillRunId = (value: Record<string, unknown>) => ({ ...value, run_id: RUN_ID });

const SEED_EXAMPLES: SeedExample[] = [
  {
    title: 'standard error shape',
    json: `{
  "ok": false,
  "run_id": "optional",
  "error": {
    "code": "ILLEGAL_STATE",
    "message": "Human readable summary",
    "retryable": false,
    "details": { "any": "object" }
  }
}
`,
    schema: LaunchErrorPayloadSchema,
  },
  {
    title: 'RunStatus',
    json: RUN_STATUS_JSON,
    schema: RunStatusSchema,
    fill: fillRunStatus,
    rejectedAt: ['artifacts', 0, 'sha256'],
  },
  {
    title: 'ArtifactResponse',
    json: `{
  "ok": true,
  "run_id": "...",
  "artifact": {
    "name": "page_plan.json",
    "content_type": "application/json",
    "sha256": "...",
    "content": "{...}"
  }
}
`,
    schema: ArtifactResponseSchema,
    fill: (v) => ({ ...v, run_id: RUN_ID, artifact: { ...(v.artifact as object), sha256: SHA256 } }),
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_start_run request',
    json: `{
  "run_config": { "...": "validated against run_config.schema.json" },
  "idempotency_key": "optional-stable-string"
}
`,
    schema: LaunchStartRunInputSchema,
    fill: (v) => ({ ...v, run_config: RUN_CONFIG }),
    rejectedAt: ['run_config'],
  },
  {
    title: 'launch_start_run response',
    json: `{
  "ok": true,
  "run_id": "r_...",
  "state": "CREATED"
}
`,
    schema: LaunchStartRunOutputSchema,
    fill: fillRunId,
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_get_status request',
    json: `{ "run_id": "r_..." }\n`,
    schema: LaunchGetStatusInputSchema,
    fill: fillRunId,
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_get_status response',
    json: `{ "ok": true, "status": { "...": "RunStatus" } }\n`,
    schema: LaunchGetStatusOutputSchema,
    fill: (v) => ({ ...v, status: FILLED_RUN_STATUS }),
    rejectedAt: ['status', 'run_id'],
  },
  {
    title: 'launch_get_artifact request',
    json: `{ "run_id": "r_...", "artifact_name": "page_plan.json" }\n`,
    schema: LaunchGetArtifactInputSchema,
    fill: fillRunId,
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_validate request',
    json: `{ "run_id": "r_..." }\n`,
    schema: LaunchValidateInputSchema,
    fill: fillRunId,
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_validate response',
    json: `{ "ok": true, "run_id": "r_...", "validation_report": { "...": "validation_report.schema.json" } }\n`,
    schema: LaunchValidateOutputSchema,
    fill: (v) => ({ ...v, run_id: RUN_ID, validation_report: VALIDATION_REPORT }),
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_fix_next request',
    json: `{ "run_id": "r_..." }\n`,
    schema: LaunchFixNextInputSchema,
    fill: fillRunId,
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_fix_next response',
    json: `{
  "ok": true,
  "run_id": "r_...",
  "fixed_issue_id": "iss_001",
  "applied_patch_ids": ["patch_007"],
  "remaining_blockers": 2,
  "validation_report": { "...": "latest report" }
}
`,
    schema: LaunchFixNextOutputSchema,
    fill: (v) => ({ ...v, run_id: RUN_ID, validation_report: VALIDATION_REPORT }),
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_resume request',
    json: `{ "run_id": "r_..." }\n`,
    schema: LaunchResumeInputSchema,
    fill: fillRunId,
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_resume response',
    json: `{ "ok": true, "status": { "...": "RunStatus" } }\n`,
    schema: LaunchResumeOutputSchema,
    fill: (v) => ({ ...v, status: FILLED_RUN_STATUS }),
    rejectedAt: ['status', 'run_id'],
  },
  {
    title: 'launch_cancel request',
    json: `{ "run_id": "r_..." }\n`,
    schema: LaunchCancelInputSchema,
    fill: fillRunId,
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_cancel response',
    json: `{ "ok": true, "run_id": "r_...", "cancelled": true, "state": "CANCELLED" }\n`,
    schema: LaunchCancelOutputSchema,
    fill: fillRunId,
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_open_pr request',
    json: `{ "run_id": "r_..." }\n`,
    schema: LaunchOpenPrInputSchema,
    fill: fillRunId,
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_open_pr response',
    json: `{
  "ok": true,
  "run_id": "r_...",
  "pr_url": "...",
  "branch": "launch/r_.../product_slug",
  "commit_sha": "..."
}
`,
    schema: LaunchOpenPrOutputSchema,
    fill: (v) => ({
      ...v,
      run_id: RUN_ID,
      pr_url: 'file:///tmp/site#launch/' + RUN_ID + '/example-product',
      branch: `launch/${RUN_ID}/example-product`,
      commit_sha: COMMIT_SHA,
    }),
    rejectedAt: ['run_id'],
  },
  {
    title: 'launch_list_runs request',
    json: `{ "filter": { "product_slug": "optional", "state": "optional" } }\n`,
    schema: LaunchListRunsInputSchema,
    fill: (v) => ({ ...v, filter: { product_slug: 'example-product', state: 'DONE' } }),
    rejectedAt: ['filter', 'state'],
  },
  {
    title: 'launch_list_runs response',
    json: `{
  "ok": true,
  "runs": [
    { "run_id": "r_...", "product_slug": "...", "state": "DONE", "started_at": "...", "finished_at": "..." }
  ]
}
`,
    schema: LaunchListRunsOutputSchema,
    fill: (v) => ({
      ...v,
      runs: (v.runs as object[]).map((run) => ({
        ...run,
        run_id: RUN_ID,
        product_slug: 'example-product',
        started_at: ISO,
        finished_at: ISO,
      })),
    }),
    rejectedAt: ['runs', 0, 'run_id'],
  },
];

function issuePaths(schema: z.ZodType, value: unknown): PropertyKey[][] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.path);
}

function expectRejectedAt(schema: z.ZodType, value: unknown, path: PropertyKey[]): void {
  const result = schema.safeParse(value);
  expect(result.success, `expected a rejection at ${JSON.stringify(path)}`).toBe(false);
  expect(issuePaths(schema, value)).toContainEqual(path);
}

describe('seed 002 JSON examples', () => {
  it.each(SEED_EXAMPLES.map((e) => [e.title, e] as const))(
    '%s parses (placeholders filled)',
    (_, example) => {
      const raw = JSON.parse(example.json) as Record<string, unknown>;
      const value = example.fill ? example.fill(clone(raw)) : raw;
      const result = example.schema.safeParse(value);
      expect(result.success, result.success ? '' : JSON.stringify(result.error.issues)).toBe(true);
    },
  );

  it.each(SEED_EXAMPLES.filter((e) => e.rejectedAt).map((e) => [e.title, e] as const))(
    '%s: the unfilled placeholder is rejected at its path',
    (_, example) => {
      expectRejectedAt(example.schema, JSON.parse(example.json), example.rejectedAt ?? []);
    },
  );

  it('the standard error shape is the only complete example and needs no filling', () => {
    expect(SEED_EXAMPLES.filter((e) => e.fill === undefined).map((e) => e.title)).toEqual([
      'standard error shape',
    ]);
  });

  const seedFile = new URL('../../../../shared/seeds/002_cccd57b8963bd7e3.txt', import.meta.url);
  it.runIf(fs.existsSync(seedFile))('the copies above are the seed blocks, verbatim and in order', () => {
    const seed = fs.readFileSync(seedFile, 'utf8');
    const blocks = [...seed.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toEqual(SEED_EXAMPLES.map((e) => e.json));
  });
});

describe('RunConfigSchema', () => {
  const parse = (overrides: Record<string, unknown>) =>
    RunConfigSchema.safeParse({ ...RUN_CONFIG, ...overrides });

  it('applies the design defaults', () => {
    const config = RunConfigSchema.parse(RUN_CONFIG);
    expect(config.site.base_ref).toBe('main');
    expect(config.site.content_root).toBe('content');
    expect(config.required_sections).toEqual(['products', 'docs']);
    expect(config.allow_inference).toBe(false);
    expect(config.max_fix_attempts).toBe(3);
    expect(config.validation_profile).toBe('local');
    expect(config.commit).toEqual(DEFAULT_COMMIT_IDENTITY);
    expect(config.pr).toEqual({ provider: 'local' });
    expect(config.source.ref).toBeUndefined();
  });

  it.each(['schema_version', 'product_slug', 'product_name', 'source', 'site', 'allowed_paths'])(
    'requires %s',
    (field) => {
      const value: Record<string, unknown> = { ...RUN_CONFIG };
      delete value[field];
      expectRejectedAt(RunConfigSchema, value, [field]);
    },
  );

  it.each([
    ['schema_version', '2.0', ['schema_version']],
    ['product_slug', 'A', ['product_slug']],
    ['product_slug', 'x', ['product_slug']],
    ['product_slug', '-leading-dash', ['product_slug']],
    ['product_slug', 'Upper', ['product_slug']],
    ['product_slug', 'a'.repeat(64), ['product_slug']],
    ['product_name', '', ['product_name']],
    ['product_name', 'n'.repeat(121), ['product_name']],
    ['source', { repo: '' }, ['source', 'repo']],
    ['source', { repo: '/x', ref: '' }, ['source', 'ref']],
    ['source', { repo: '/x', extra: 1 }, ['source']],
    ['site', { repo: '/x', base_ref: '' }, ['site', 'base_ref']],
    ['site', { repo: '/x', content_root: '' }, ['site', 'content_root']],
    ['required_sections', [], ['required_sections']],
    ['required_sections', ['docs', 'docs'], ['required_sections']],
    ['required_sections', ['manual'], ['required_sections', 0]],
    ['allowed_paths', [], ['allowed_paths']],
    ['allowed_paths', ['/etc/**'], ['allowed_paths', 0]],
    ['allowed_paths', ['C:\\site'], ['allowed_paths', 0]],
    ['allowed_paths', ['content/../secrets'], ['allowed_paths', 0]],
    ['allowed_paths', ['content/**', ''], ['allowed_paths', 1]],
    ['allow_inference', 'no', ['allow_inference']],
    ['max_fix_attempts', -1, ['max_fix_attempts']],
    ['max_fix_attempts', 21, ['max_fix_attempts']],
    ['max_fix_attempts', 1.5, ['max_fix_attempts']],
    ['validation_profile', 'staging', ['validation_profile']],
    ['commit', { author_name: 'A' }, ['commit', 'author_email']],
    ['commit', { author_name: '', author_email: 'a@b.co' }, ['commit', 'author_name']],
    ['commit', { author_name: 'A', author_email: 'not-an-email' }, ['commit', 'author_email']],
    ['pr', { provider: 'gitlab' }, ['pr', 'provider']],
    ['pr', { provider: 'github' }, ['pr', 'github']],
    [
      'pr',
      { provider: 'github', github: { owner: 'o', repo: 'r', token_env: 'ghp_secret' } },
      ['pr', 'github', 'token_env'],
    ],
    [
      'pr',
      {
        provider: 'github',
        github: { owner: 'o', repo: 'r', token_env: 'GH_TOKEN', api_base_url: 'not a url' },
      },
      ['pr', 'github', 'api_base_url'],
    ],
  ] as const)('rejects %s = %j at %j', (field, value, path) => {
    expectRejectedAt(RunConfigSchema, { ...RUN_CONFIG, [field]: value }, [...path]);
  });

  it('pr.github owner and repo are GitHub names: one segment of the API path each', () => {
    const github = (owner: string, repo: string) =>
      parse({ pr: { provider: 'github', github: { owner, repo, token_env: 'GITHUB_TOKEN' } } });
    for (const [owner, repo] of [
      ['octocat', 'hello-world'],
      ['octocat_acme', 'docs.site'],
      ['A-1', '.github'],
    ]) {
      expect(github(owner!, repo!).success, `${owner}/${repo}`).toBe(true);
    }
    for (const owner of ['..', '.', 'a/b', 'a b', 'a?b', 'a%2F', 'x\ud800']) {
      expectRejectedAt(
        RunConfigSchema,
        {
          ...RUN_CONFIG,
          pr: { provider: 'github', github: { owner, repo: 'r', token_env: 'GITHUB_TOKEN' } },
        },
        ['pr', 'github', 'owner'],
      );
    }
    for (const repo of ['..', '../user', 'r#x']) {
      expectRejectedAt(
        RunConfigSchema,
        {
          ...RUN_CONFIG,
          pr: { provider: 'github', github: { owner: 'o', repo, token_env: 'GITHUB_TOKEN' } },
        },
        ['pr', 'github', 'repo'],
      );
    }
  });

  it('rejects unknown fields (strict) and accepts the boundaries', () => {
    expect(parse({ extra: true }).success).toBe(false);
    expect(parse({ max_fix_attempts: 0 }).success).toBe(true);
    expect(parse({ max_fix_attempts: 20 }).success).toBe(true);
    expect(parse({ product_slug: 'ab' }).success).toBe(true);
    expect(parse({ product_slug: 'a'.repeat(63) }).success).toBe(true);
    expect(parse({ product_name: 'n'.repeat(120) }).success).toBe(true);
    expect(parse({ required_sections: ['products', 'docs', 'reference', 'kb', 'blog'] }).success).toBe(true);
    expect(
      parse({ pr: { provider: 'github', github: { owner: 'o', repo: 'r', token_env: 'GITHUB_TOKEN' } } })
        .success,
    ).toBe(true);
  });
});

describe('validation report', () => {
  const issue = VALIDATION_REPORT.issues[0];

  it('lists the design gates and severities, lower case', () => {
    expect([...GATES]).toEqual([
      'FrontMatter',
      'TruthLock',
      'InternalLinks',
      'TemplateTokens',
      'Consistency',
      'Snippets',
      'MarkdownLint',
      'SiteBuild',
    ]);
    expect([...SEVERITIES]).toEqual(['blocker', 'error', 'warn', 'info']);
  });

  it.each([
    [{ ...issue, gate: 'Spelling' }, ['gate']],
    [{ ...issue, severity: 'BLOCKER' }, ['severity']],
    [{ ...issue, error_code: 'uncited-claim' }, ['error_code']],
    [{ ...issue, status: 'CLOSED' }, ['status']],
    [{ ...issue, location: { path: 'a.md', line: -1 } }, ['location', 'line']],
    [{ ...issue, location: { path: 'a.md', line: 1.5 } }, ['location', 'line']],
    [{ ...issue, issue_id: '' }, ['issue_id']],
    [{ ...issue, suggested_fix: undefined }, ['suggested_fix']],
  ] as const)('an issue %j is rejected at %j', (value, path) => {
    expectRejectedAt(ValidationIssueSchema, value, [...path]);
  });

  it.each([
    [{ ...VALIDATION_REPORT, schema_version: '2' }, ['schema_version']],
    [{ ...VALIDATION_REPORT, profile: 'dev' }, ['profile']],
    [{ ...VALIDATION_REPORT, ok: 'false' }, ['ok']],
    [
      { ...VALIDATION_REPORT, gates: [{ name: 'TruthLock', ok: true, duration_ms: -1 }] },
      ['gates', 0, 'duration_ms'],
    ],
    [{ ...VALIDATION_REPORT, issues: undefined }, ['issues']],
  ] as const)('a report %j is rejected at %j', (value, path) => {
    expectRejectedAt(ValidationReportSchema, value, [...path]);
  });
});

describe('run states and status', () => {
  it('has the design states, terminal and stable sets', () => {
    expect([...RUN_STATES]).toEqual([
      'CREATED',
      'CLONED_INPUTS',
      'INGESTED',
      'FACTS_READY',
      'PLAN_READY',
      'DRAFTING',
      'DRAFT_READY',
      'LINKING',
      'VALIDATING',
      'FIXING',
      'READY_FOR_PR',
      'PR_OPENED',
      'DONE',
      'FAILED',
      'CANCELLED',
    ]);
    expect([...TERMINAL_STATES]).toEqual(['DONE', 'FAILED', 'CANCELLED']);
    expect([...STABLE_STATES]).toEqual(['PLAN_READY', 'DRAFT_READY', 'VALIDATING', 'READY_FOR_PR']);
    expect([...SECTION_STATES]).toEqual([
      'NOT_STARTED',
      'OUTLINED',
      'DRAFTED',
      'MERGED_IN_WORKTREE',
      'DONE',
      'BLOCKED',
    ]);
  });

  it("holds each run tool's allowed states as the lifecycle orders them, in a module without zod", () => {
    // "At least LINKING": LINKING and every state after it on the main line (DONE, not FAILED or CANCELLED).
    const linking = RUN_STATES.indexOf('LINKING');
    expect([...LAUNCH_TOOL_STATES.launch_validate.allowed]).toEqual(
      RUN_STATES.filter((state, i) => i >= linking && state !== 'FAILED' && state !== 'CANCELLED'),
    );
    expect([...LAUNCH_TOOL_STATES.launch_resume.allowed]).toEqual(
      RUN_STATES.filter((state) => !TERMINAL_STATES.includes(state)),
    );
    expect([...LAUNCH_TOOL_STATES.launch_fix_next.allowed]).toEqual(['VALIDATING']);
    expect([...LAUNCH_TOOL_STATES.launch_open_pr.allowed]).toEqual(['READY_FOR_PR']);
    // A view bundles it: it imports nothing (zod would take the page over its size limit).
    const source = fs.readFileSync(new URL('../src/launch-runs/tool-states.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*(import|export .* from)\b/m);
  });

  it.each([
    [{ ...FILLED_RUN_STATUS, run_id: 'r_short' }, ['run_id']],
    [{ ...FILLED_RUN_STATUS, run_id: 'r_../../etc' }, ['run_id']],
    [{ ...FILLED_RUN_STATUS, state: 'RUNNING' }, ['state']],
    [{ ...FILLED_RUN_STATUS, section_states: { docs: 'WRITTEN' } }, ['section_states', 'docs']],
    [
      {
        ...FILLED_RUN_STATUS,
        open_issues: [{ issue_id: 'i', severity: 'fatal', gate: 'TruthLock', title: 't' }],
      },
      ['open_issues', 0, 'severity'],
    ],
    [{ ...FILLED_RUN_STATUS, artifacts: [{ name: 'a', sha256: 'ABC' }] }, ['artifacts', 0, 'sha256']],
    [{ ...FILLED_RUN_STATUS, artifacts: undefined }, ['artifacts']],
  ] as const)('a status %j is rejected at %j', (value, path) => {
    expectRejectedAt(RunStatusSchema, value, [...path]);
  });
});

describe('tool inputs and outputs', () => {
  it('covers the nine tools of the contract and the additive launch_submit_draft', () => {
    expect(Object.keys(LAUNCH_TOOL_SCHEMAS)).toEqual([
      'launch_start_run',
      'launch_get_status',
      'launch_get_artifact',
      'launch_validate',
      'launch_fix_next',
      'launch_resume',
      'launch_cancel',
      'launch_open_pr',
      'launch_list_runs',
      'launch_submit_draft',
    ]);
  });

  it('launch_submit_draft: a page and a non-empty markdown body; the answer lists issues and remaining pages', () => {
    const input = LAUNCH_TOOL_SCHEMAS.launch_submit_draft.input;
    const run_id = 'r_2026-01-21T10-00-00Z_0f3a9c1e';
    expectRejectedAt(input, { run_id, markdown: 'x' }, ['page']);
    expectRejectedAt(input, { run_id, page: 'docs/usage', markdown: '' }, ['markdown']);
    expectRejectedAt(input, { run_id, page: 'p'.repeat(301), markdown: 'x' }, ['page']);
    expect(input.safeParse({ run_id, page: 'docs/usage', markdown: 'x', extra: 1 }).success).toBe(false);
    const answer = { ok: true, run_id, page: 'docs/usage', accepted: false, remaining_pages: ['docs/usage'] };
    const issue = {
      line: 3,
      sentence: 'It retries 7 times.',
      code: 'UNSUPPORTED_NUMBER',
      message: 'Cite it.',
    };
    const output = LAUNCH_TOOL_SCHEMAS.launch_submit_draft.output;
    expect(output.parse({ ...answer, issues: [issue] }).issues).toEqual([issue]);
    expectRejectedAt(output, answer, ['issues']);
  });

  it('run_config.drafting is optional (a config without it keeps its bytes) and only extractive or model', () => {
    expect('drafting' in RunConfigSchema.parse(RUN_CONFIG)).toBe(false);
    expect(RunConfigSchema.parse({ ...RUN_CONFIG, drafting: 'model' }).drafting).toBe('model');
    expectRejectedAt(RunConfigSchema, { ...RUN_CONFIG, drafting: 'sampling' }, ['drafting']);
  });

  it.each(
    Object.entries(LAUNCH_TOOL_SCHEMAS).filter(
      ([name]) => !['launch_start_run', 'launch_list_runs'].includes(name),
    ),
  )('%s requires a well-formed run_id before anything else', (_, { input }) => {
    expectRejectedAt(input, {}, ['run_id']);
    expectRejectedAt(input, { run_id: '../../../etc/passwd', artifact_name: 'a.json' }, ['run_id']);
    expectRejectedAt(input, { run_id: 'r_ok', artifact_name: 'a.json' }, ['run_id']);
    expectRejectedAt(input, { run_id: 'r_' + 'a'.repeat(63), artifact_name: 'a.json' }, ['run_id']);
  });

  it('launch_start_run: run_config is required, idempotency_key is bounded', () => {
    expectRejectedAt(LaunchStartRunInputSchema, {}, ['run_config']);
    expectRejectedAt(LaunchStartRunInputSchema, { run_config: RUN_CONFIG, idempotency_key: '' }, [
      'idempotency_key',
    ]);
    expectRejectedAt(
      LaunchStartRunInputSchema,
      { run_config: RUN_CONFIG, idempotency_key: 'k'.repeat(201) },
      ['idempotency_key'],
    );
    expectRejectedAt(LaunchStartRunInputSchema, { run_config: { ...RUN_CONFIG, product_slug: 'Bad' } }, [
      'run_config',
      'product_slug',
    ]);
  });

  it.each(['../secrets', 'a/../../b', '/etc/passwd', 'drafts/./x.md', 'a\\b', 'a\0b', '', 'x'.repeat(256)])(
    'launch_get_artifact rejects the artifact_name %j',
    (name) => {
      expectRejectedAt(LaunchGetArtifactInputSchema, { run_id: RUN_ID, artifact_name: name }, [
        'artifact_name',
      ]);
    },
  );

  it('launch_get_artifact accepts nested artifact names', () => {
    expect(
      LaunchGetArtifactInputSchema.safeParse({ run_id: RUN_ID, artifact_name: 'drafts/docs/index.md' })
        .success,
    ).toBe(true);
  });

  it('launch_list_runs: filter state enum, page size 1..50 (default 50), bounded cursor', () => {
    expect(LaunchListRunsInputSchema.parse({}).limit).toBe(50);
    expectRejectedAt(LaunchListRunsInputSchema, { filter: { state: 'RUNNING' } }, ['filter', 'state']);
    expectRejectedAt(LaunchListRunsInputSchema, { limit: 0 }, ['limit']);
    expectRejectedAt(LaunchListRunsInputSchema, { limit: 51 }, ['limit']);
    expectRejectedAt(LaunchListRunsInputSchema, { cursor: 'c'.repeat(201) }, ['cursor']);
    expectRejectedAt(LaunchListRunsInputSchema, { filter: { owner: 'me' } }, ['filter']);
  });

  it('outputs carry ok=true and their binding literals', () => {
    expectRejectedAt(LaunchStartRunOutputSchema, { ok: false, run_id: RUN_ID, state: 'CREATED' }, ['ok']);
    expectRejectedAt(
      LaunchCancelOutputSchema,
      { ok: true, run_id: RUN_ID, cancelled: false, state: 'CANCELLED' },
      ['cancelled'],
    );
    expectRejectedAt(LaunchCancelOutputSchema, { ok: true, run_id: RUN_ID, cancelled: true, state: 'DONE' }, [
      'state',
    ]);
    expectRejectedAt(
      LaunchOpenPrOutputSchema,
      { ok: true, run_id: RUN_ID, pr_url: 'u', branch: 'b', commit_sha: 'main' },
      ['commit_sha'],
    );
    expectRejectedAt(
      LaunchFixNextOutputSchema,
      {
        ok: true,
        run_id: RUN_ID,
        fixed_issue_id: 'iss_001',
        applied_patch_ids: [],
        remaining_blockers: -1,
        validation_report: VALIDATION_REPORT,
      },
      ['remaining_blockers'],
    );
    expectRejectedAt(
      ArtifactResponseSchema,
      {
        ok: true,
        run_id: RUN_ID,
        artifact: {
          name: 'a.bin',
          content_type: 'application/octet-stream;base64',
          sha256: SHA256,
          content: 'AA==',
          encoding: 'hex',
        },
      },
      ['artifact', 'encoding'],
    );
  });

  it('the error payload requires a code of the table and details', () => {
    const payload = {
      ok: false,
      error: { code: 'ILLEGAL_STATE', message: 'm', retryable: false, details: {} },
    };
    expect(LaunchErrorPayloadSchema.safeParse(payload).success).toBe(true);
    expectRejectedAt(LaunchErrorPayloadSchema, { ...payload, error: { ...payload.error, code: 'NOPE' } }, [
      'error',
      'code',
    ]);
    expectRejectedAt(
      LaunchErrorPayloadSchema,
      { ...payload, error: { ...payload.error, details: undefined } },
      ['error', 'details'],
    );
    expectRejectedAt(LaunchErrorPayloadSchema, { ...payload, ok: true }, ['ok']);
  });
});
