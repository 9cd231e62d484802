import { z } from 'zod';
import { RunConfigSchema } from './run-config.js';
import { RunIdSchema, RunStateSchema, RunStatusSchema } from './status.js';
import { ValidationReportSchema } from './validation.js';
import { nameToolSchemas } from '../schema-names.js';

const ok = z.literal(true).describe('True: the tool executed successfully.');

const ArtifactNameSchema = z
  .string()
  .min(1)
  .max(255)
  .refine((name) => !name.includes('\0') && !name.includes('\\'), {
    message: 'artifact_name has invalid characters',
  })
  .refine((name) => !name.startsWith('/') && !name.split('/').some((part) => part === '..' || part === '.'), {
    message: 'artifact_name must be a relative artifact name without "." or ".." segments',
  })
  .describe('Artifact name as listed in the run status, e.g. page_plan.json.');

const runScoped = z.strictObject({ run_id: RunIdSchema });

/** Set on an answer whose lists were cut to the server's answer limit (additive). */
export const AnswerTruncationSchema = z
  .object({
    omitted: z
      .record(z.string(), z.number().int().min(1))
      .describe('Items left out of each list, by its path, e.g. { "validation_report.issues": 120 }.'),
    message: z.string().describe('What was left out, and where to read all of it.'),
  })
  .describe(
    "Present when the answer passed the server's answer limit (SWITCHYARD_MAX_ANSWER_BYTES) and lists were " +
      'cut at an item boundary (additive).',
  );
export type AnswerTruncation = z.infer<typeof AnswerTruncationSchema>;
const truncated = AnswerTruncationSchema.optional();

// launch_start_run
export const LaunchStartRunInputSchema = z
  .strictObject({
    run_config: RunConfigSchema,
    idempotency_key: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Optional stable key: the same key and config return the existing run.'),
  })
  .describe('Start a new run from a run_config.');
export const LaunchStartRunOutputSchema = z
  .object({ ok, run_id: RunIdSchema, state: RunStateSchema })
  .describe('The run id and its state (CREATED for a new run).');

// launch_get_status
export const LaunchGetStatusInputSchema = runScoped.describe('Which run.');
export const LaunchGetStatusOutputSchema = z
  .object({ ok, status: RunStatusSchema, truncated })
  .describe('The run status.');

// launch_get_artifact
export const LaunchGetArtifactInputSchema = z
  .strictObject({
    run_id: RunIdSchema,
    artifact_name: ArtifactNameSchema,
    offset: z
      .number({ error: 'offset must be a whole number of bytes >= 0' })
      .int({ error: 'offset must be a whole number of bytes >= 0' })
      .min(0, { error: 'offset must be a whole number of bytes >= 0' })
      .optional()
      .describe('Where to start reading, in bytes: the next_offset of an earlier answer (default 0).'),
  })
  .describe('Which artifact of which run, and from where.');
export const ArtifactSchema = z
  .object({
    name: z.string().describe('Artifact name.'),
    content_type: z
      .string()
      .describe('Media type; binary artifacts say `;base64`, e.g. `application/octet-stream;base64`.'),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe('sha256 of the artifact bytes.'),
    content: z.string().describe('The content: text as is, binary as base64.'),
    encoding: z
      .enum(['utf-8', 'base64'])
      .optional()
      .describe(
        'How `content` is encoded (additive: Switchyard always sends it; the seed does not require it).',
      ),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('The byte of the artifact `content` starts at (additive; 0 for the whole artifact).'),
    size: z.number().int().min(0).optional().describe('The whole artifact, in bytes (additive).'),
  })
  .describe('An artifact and its content.');
export const ArtifactResponseSchema = z
  .object({
    ok,
    run_id: RunIdSchema,
    artifact: ArtifactSchema,
    next_offset: z
      .number()
      .int()
      .min(0)
      .nullable()
      .optional()
      .describe(
        'Where the rest of the artifact starts when `content` is one part of it (pass it as offset); null ' +
          'when content reaches the end. A large artifact comes in parts that fit the answer limit (additive).',
      ),
  })
  .describe('ArtifactResponse.');
export const LaunchGetArtifactOutputSchema = ArtifactResponseSchema;

// launch_validate
export const LaunchValidateInputSchema = runScoped.describe(
  'Which run to validate (state at least LINKING).',
);
export const LaunchValidateOutputSchema = z
  .object({ ok, run_id: RunIdSchema, validation_report: ValidationReportSchema, truncated })
  .describe('The report; gate pass/fail is validation_report.ok.');

// launch_fix_next
export const LaunchFixNextInputSchema = runScoped.describe(
  'Which run to fix (state VALIDATING, last report not ok).',
);
export const LaunchFixNextOutputSchema = z
  .object({
    ok,
    run_id: RunIdSchema,
    fixed_issue_id: z.string().describe('The issue the fix addressed.'),
    applied_patch_ids: z.array(z.string()).describe('Patches applied to the site worktree.'),
    remaining_blockers: z.number().int().min(0).describe('Open blockers and errors after re-validation.'),
    validation_report: ValidationReportSchema,
    truncated,
  })
  .describe('The fix applied and the re-validation.');

// launch_resume
export const LaunchResumeInputSchema = runScoped.describe('Which run to resume.');
export const LaunchResumeOutputSchema = z
  .object({ ok, status: RunStatusSchema, truncated })
  .describe('Status after continuing to the next stable boundary.');

// launch_cancel
export const LaunchCancelInputSchema = runScoped.describe('Which run to cancel.');
export const LaunchCancelOutputSchema = z
  .object({
    ok,
    run_id: RunIdSchema,
    cancelled: z.literal(true).describe('Always true.'),
    state: z.literal('CANCELLED').describe('Always CANCELLED.'),
  })
  .describe('The run is cancelled; its artifacts are kept.');

// launch_open_pr
export const LaunchOpenPrInputSchema = runScoped.describe('Which run to open a PR for (state READY_FOR_PR).');
export const LaunchOpenPrOutputSchema = z
  .object({
    ok,
    run_id: RunIdSchema,
    pr_url: z.string().describe('URL of the pull request.'),
    branch: z.string().describe('launch/<run_id>/<product_slug>.'),
    commit_sha: z
      .string()
      .regex(/^[0-9a-f]{40,64}$/)
      .describe('The launch commit.'),
  })
  .describe('The pull request.');

// launch_list_runs
export const LaunchListRunsInputSchema = z
  .strictObject({
    filter: z
      .strictObject({
        product_slug: z.string().max(63).optional().describe('Only runs of this product.'),
        state: RunStateSchema.optional(),
      })
      .optional()
      .describe('Optional filters.'),
    cursor: z.string().max(200).optional().describe('next_cursor of the previous page.'),
    limit: z.number().int().min(1).max(50).default(50).describe('Page size.'),
  })
  .describe('List runs, newest first.');
export const RunSummarySchema = z
  .object({
    run_id: RunIdSchema,
    product_slug: z.string().describe('The product.'),
    state: RunStateSchema,
    started_at: z.string().describe('ISO 8601.'),
    finished_at: z.string().nullable().describe('ISO 8601 when terminal, else null.'),
  })
  .describe('A run in a listing.');
export const LaunchListRunsOutputSchema = z
  .object({
    ok,
    runs: z.array(RunSummarySchema).describe('Runs, newest first.'),
    next_cursor: z
      .string()
      .nullable()
      .optional()
      .describe(
        'Pass as cursor for the next page; null on the last page (additive: Switchyard always sends it; the seed does not require it).',
      ),
  })
  .describe('A page of runs.');

// launch_submit_draft
export const LaunchSubmitDraftInputSchema = z
  .strictObject({
    run_id: RunIdSchema,
    page: z
      .string()
      .min(1)
      .max(300)
      .describe(
        'The page_id of a page the run waits for (status waiting_for_drafts; writing_brief.json pages).',
      ),
    markdown: z
      .string()
      .min(1)
      .describe(
        "The page body in Markdown, written to the brief's rules: each factual sentence ends with its claim " +
          'markers (at most LAUNCH_MAX_DRAFT_BYTES).',
      ),
  })
  .describe('A draft of one page of a run waiting for drafts.');
export const DraftIssueSchema = z
  .object({
    line: z.number().int().min(0).describe('1-based line of the draft the issue is on.'),
    sentence: z.string().describe('What the rule refused.'),
    code: z.string().describe('The rule, e.g. UNCITED_FACT.'),
    message: z.string().describe('What would satisfy the rule.'),
  })
  .describe('Why the verifier refused part of a draft.');
export const LaunchSubmitDraftOutputSchema = z
  .object({
    ok,
    run_id: RunIdSchema,
    page: z.string().describe('The page the draft is for.'),
    accepted: z
      .boolean()
      .describe(
        "True: every sentence is supported by its cited evidence and the draft is the page's draft now.",
      ),
    issues: z.array(DraftIssueSchema).describe('Why the draft was refused (empty when accepted).'),
    remaining_pages: z
      .array(z.string())
      .describe('Pages still waiting for a draft; empty once the run has gone on to link and validate.'),
  })
  .describe('The verdict, and the pages still to write.');

export const LAUNCH_TOOL_SCHEMAS = {
  launch_start_run: { input: LaunchStartRunInputSchema, output: LaunchStartRunOutputSchema },
  launch_get_status: { input: LaunchGetStatusInputSchema, output: LaunchGetStatusOutputSchema },
  launch_get_artifact: { input: LaunchGetArtifactInputSchema, output: LaunchGetArtifactOutputSchema },
  launch_validate: { input: LaunchValidateInputSchema, output: LaunchValidateOutputSchema },
  launch_fix_next: { input: LaunchFixNextInputSchema, output: LaunchFixNextOutputSchema },
  launch_resume: { input: LaunchResumeInputSchema, output: LaunchResumeOutputSchema },
  launch_cancel: { input: LaunchCancelInputSchema, output: LaunchCancelOutputSchema },
  launch_open_pr: { input: LaunchOpenPrInputSchema, output: LaunchOpenPrOutputSchema },
  launch_list_runs: { input: LaunchListRunsInputSchema, output: LaunchListRunsOutputSchema },
  launch_submit_draft: { input: LaunchSubmitDraftInputSchema, output: LaunchSubmitDraftOutputSchema },
} as const;
nameToolSchemas(LAUNCH_TOOL_SCHEMAS);

export type LaunchStartRunInput = z.input<typeof LaunchStartRunInputSchema>;
export type LaunchStartRunOutput = z.output<typeof LaunchStartRunOutputSchema>;
export type LaunchGetStatusOutput = z.output<typeof LaunchGetStatusOutputSchema>;
export type ArtifactResponse = z.output<typeof ArtifactResponseSchema>;
export type LaunchValidateOutput = z.output<typeof LaunchValidateOutputSchema>;
export type LaunchFixNextOutput = z.output<typeof LaunchFixNextOutputSchema>;
export type LaunchResumeOutput = z.output<typeof LaunchResumeOutputSchema>;
export type LaunchCancelOutput = z.output<typeof LaunchCancelOutputSchema>;
export type LaunchOpenPrOutput = z.output<typeof LaunchOpenPrOutputSchema>;
export type LaunchListRunsInput = z.input<typeof LaunchListRunsInputSchema>;
export type LaunchListRunsOutput = z.output<typeof LaunchListRunsOutputSchema>;
export type RunSummary = z.output<typeof RunSummarySchema>;
export type LaunchSubmitDraftInput = z.input<typeof LaunchSubmitDraftInputSchema>;
export type LaunchSubmitDraftOutput = z.output<typeof LaunchSubmitDraftOutputSchema>;
