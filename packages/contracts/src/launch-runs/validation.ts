import { z } from 'zod';
import { ValidationProfileSchema } from './run-config.js';

export const GATES = [
  'FrontMatter',
  'TruthLock',
  'InternalLinks',
  'TemplateTokens',
  'Consistency',
  'Snippets',
  'MarkdownLint',
  'SiteBuild',
] as const;
export const GateNameSchema = z.enum(GATES).describe('A validation gate (W7).');
export type GateName = z.infer<typeof GateNameSchema>;

export const SEVERITIES = ['blocker', 'error', 'warn', 'info'] as const;
export const SeveritySchema = z
  .enum(SEVERITIES)
  .describe('Issue severity; blocker and error keep a report from ok.');
export type Severity = z.infer<typeof SeveritySchema>;

export const ValidationIssueSchema = z
  .object({
    issue_id: z.string().min(1).describe('Stable id: hash of gate + code + path + line + message.'),
    gate: GateNameSchema,
    severity: SeveritySchema,
    error_code: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/)
      .describe('UPPER_SNAKE code of the problem, e.g. UNCITED_CLAIM.'),
    message: z.string().describe('What is wrong.'),
    location: z
      .object({
        path: z.string().describe('File path relative to the site root.'),
        line: z.number().int().min(0).describe('1-based line; 0 when the issue concerns the whole file.'),
      })
      .describe('Where the issue is.'),
    status: z.enum(['OPEN', 'RESOLVED']).describe('OPEN until a fix or a later validation resolves it.'),
    suggested_fix: z.string().nullable().describe('The smallest change that would resolve it, when known.'),
  })
  .describe('One problem found by a gate.');
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

export const GateResultSchema = z
  .object({
    name: GateNameSchema,
    ok: z.boolean().describe('True when the gate found no open blocker or error.'),
    duration_ms: z.number().nonnegative().describe('How long the gate took.'),
    skipped: z.boolean().optional().describe('True when the profile skipped the gate.'),
    reason: z.string().optional().describe('Why the gate was skipped.'),
  })
  .describe('Outcome of one gate.');
export type GateResult = z.infer<typeof GateResultSchema>;

export const ValidationReportSchema = z
  .object({
    schema_version: z.literal('1.0').describe('Version of this schema.'),
    ok: z.boolean().describe('True when no open blocker or error remains.'),
    profile: ValidationProfileSchema,
    gates: z.array(GateResultSchema).describe('Every gate of the profile, in order.'),
    issues: z
      .array(ValidationIssueSchema)
      .describe('Issues found, sorted by severity, gate, path, line, id.'),
  })
  .describe('Result of a validation (validation_report.schema.json).');
export type ValidationReport = z.infer<typeof ValidationReportSchema>;
