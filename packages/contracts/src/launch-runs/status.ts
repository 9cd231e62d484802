import { z } from 'zod';
import { GateNameSchema, SeveritySchema } from './validation.js';
import { RUN_STATES, TERMINAL_STATES } from './tool-states.js';

export { RUN_STATES, TERMINAL_STATES };
export const RunStateSchema = z.enum(RUN_STATES).describe('State of a launch run.');
export type RunState = z.infer<typeof RunStateSchema>;

/** States a run can be resumed from after an interruption. */
export const STABLE_STATES: readonly RunState[] = ['PLAN_READY', 'DRAFT_READY', 'VALIDATING', 'READY_FOR_PR'];

export const SECTION_STATES = [
  'NOT_STARTED',
  'OUTLINED',
  'DRAFTED',
  'MERGED_IN_WORKTREE',
  'DONE',
  'BLOCKED',
] as const;
export const SectionStateSchema = z.enum(SECTION_STATES).describe('Progress of one required section.');
export type SectionState = z.infer<typeof SectionStateSchema>;

export const RunIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'run_id must match ^[A-Za-z0-9_-]{8,64}$')
  .describe('Run id from launch_start_run.');

export const ArtifactRefSchema = z
  .object({
    name: z.string().describe('Artifact name, e.g. page_plan.json or drafts/docs/index.md.'),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe('sha256 of the artifact bytes, hex.'),
  })
  .describe('An artifact in the run index.');

export const RunStatusSchema = z
  .object({
    run_id: RunIdSchema,
    state: RunStateSchema,
    section_states: z.record(z.string(), SectionStateSchema).describe('State per required section.'),
    open_issues: z
      .array(
        z
          .object({
            issue_id: z.string().describe('Stable issue id.'),
            severity: SeveritySchema,
            gate: GateNameSchema,
            title: z.string().describe('Short description.'),
          })
          .describe('An open issue of the latest validation.'),
      )
      .describe('Open issues of the latest validation report.'),
    artifacts: z.array(ArtifactRefSchema).describe('Artifacts written so far, with sha256.'),
    product_slug: z.string().optional().describe('The run product (additive).'),
    started_at: z.string().optional().describe('When the run was created, ISO 8601 (additive).'),
    updated_at: z.string().optional().describe('Last state change, ISO 8601 (additive).'),
    waiting_for_drafts: z
      .array(z.string())
      .optional()
      .describe('Pages a drafting "model" run waits for, for launch_submit_draft (additive).'),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Extra facts, e.g. { interrupted: true } for a run a dead process left mid-step.'),
  })
  .describe('Status of a launch run (RunStatus).');
export type RunStatus = z.infer<typeof RunStatusSchema>;
