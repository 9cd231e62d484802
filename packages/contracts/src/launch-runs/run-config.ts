import { z } from 'zod';

export const SECTIONS = ['products', 'docs', 'reference', 'kb', 'blog'] as const;
export const SectionSchema = z.enum(SECTIONS).describe('A documentation section of the site.');
export type Section = z.infer<typeof SectionSchema>;

export const DRAFTING_MODES = ['extractive', 'model'] as const;
export const DraftingModeSchema = z
  .enum(DRAFTING_MODES)
  .describe(
    'Who writes the pages (additive; extractive when absent): the run, from the evidence, or your model ' +
      '(launch_submit_draft).',
  );
export type DraftingMode = z.infer<typeof DraftingModeSchema>;

export const VALIDATION_PROFILES = ['local', 'ci', 'prod'] as const;
export const ValidationProfileSchema = z
  .enum(VALIDATION_PROFILES)
  .describe('Which gates run: local skips the ones needing external toolchains (MarkdownLint, SiteBuild).');

/** The identity commits are made with when run_config.commit is not given. */
export const DEFAULT_COMMIT_IDENTITY = {
  author_name: 'Switchyard Launch',
  author_email: 'launch@switchyard.invalid',
} as const;

const relativeGlob = z
  .string()
  .min(1)
  .max(300)
  .refine((value) => !value.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(value), {
    message: 'allowed_paths entries must be relative to the site root (no absolute paths)',
  })
  .refine((value) => !value.split(/[\\/]/).includes('..'), {
    message: 'allowed_paths entries must not contain ".."',
  })
  .refine((value) => !value.includes('\0'), { message: 'allowed_paths entries must not contain NUL' })
  .describe('A glob relative to the site root, e.g. `content/docs/**`.');

/** A GitHub account or repository name: one segment of the API path `repos/{owner}/{repo}/pulls`. */
const GITHUB_NAME = /^(?!\.\.?$)[A-Za-z0-9_.-]+$/;

function githubName(field: 'owner' | 'repo') {
  return (
    z
      .string()
      .min(1)
      .max(100)
      // A refinement, not a regex: the listed schema keeps the design's plain string.
      .refine(
        (name) => GITHUB_NAME.test(name),
        `${field} must be a GitHub name: letters, digits, "-", "_" and "." (not "." or "..")`,
      )
  );
}

export const RunConfigSchema = z
  .strictObject({
    schema_version: z.literal('1.0').describe('Version of this schema; must be "1.0".'),
    product_slug: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'product_slug must match ^[a-z0-9][a-z0-9-]{1,62}$')
      .describe('URL-safe product identifier, used in paths and the branch name.'),
    product_name: z.string().min(1).max(120).describe('Display name of the product.'),
    source: z
      .strictObject({
        repo: z.string().min(1).max(2048).describe('Product source repository: a local path or a git URL.'),
        ref: z
          .string()
          .min(1)
          .max(255)
          .optional()
          .describe('Branch, tag or SHA; default the default branch.'),
      })
      .describe('The product source repository the facts come from.'),
    site: z
      .strictObject({
        repo: z.string().min(1).max(2048).describe('Site repository: a local path or a git URL.'),
        base_ref: z
          .string()
          .min(1)
          .max(255)
          .default('main')
          .describe('Branch the launch branch starts from.'),
        content_root: z
          .string()
          .min(1)
          .max(300)
          .default('content')
          .describe('Folder of the site that holds the pages, relative to the site root.'),
      })
      .describe('The documentation site repository the pages go into.'),
    required_sections: z
      .array(SectionSchema)
      .min(1)
      .refine((values) => new Set(values).size === values.length, {
        message: 'required_sections must not contain duplicates',
      })
      .default(['products', 'docs'])
      .describe('Sections to produce; at least one, no duplicates.'),
    allowed_paths: z
      .array(relativeGlob)
      .min(1)
      .describe('Globs (relative to the site root) that the run may write; at least one.'),
    allow_inference: z
      .boolean()
      .default(false)
      .describe('When false, no sentence may state a fact without evidence.'),
    max_fix_attempts: z
      .number()
      .int()
      .min(0)
      .max(20)
      .default(3)
      .describe('Fix attempts before FIX_EXHAUSTED.'),
    validation_profile: ValidationProfileSchema.default('local'),
    // Optional rather than defaulted: a run_config without it keeps its bytes and idempotency hash.
    drafting: DraftingModeSchema.optional(),
    commit: z
      .strictObject({
        author_name: z.string().min(1).max(200).describe('Commit author name.'),
        author_email: z.email().describe('Commit author email.'),
        message: z
          .string()
          .min(1)
          .max(2000)
          .optional()
          .describe('Commit message; a summary of the launch by default.'),
      })
      .default({ ...DEFAULT_COMMIT_IDENTITY })
      .describe('Who the launch commit is authored by.'),
    pr: z
      .strictObject({
        provider: z
          .enum(['local', 'github'])
          .describe('local: push the branch and write pr.json; github: open a PR.'),
        remote: z
          .string()
          .min(1)
          .max(2048)
          .optional()
          .describe('Where to push; the site repository by default.'),
        github: z
          .strictObject({
            owner: githubName('owner').describe('Repository owner.'),
            repo: githubName('repo').describe('Repository name.'),
            token_env: z
              .string()
              .regex(/^[A-Z_][A-Z0-9_]*$/, 'token_env must name an environment variable, e.g. GITHUB_TOKEN')
              .describe('Name of the environment variable holding the token (never the token itself).'),
            api_base_url: z
              .url()
              .optional()
              .describe('GitHub API base URL; https://api.github.com by default.'),
          })
          .optional()
          .describe('GitHub settings; required when provider is github.'),
      })
      .refine((pr) => pr.provider !== 'github' || pr.github !== undefined, {
        message: 'pr.github is required when pr.provider is "github"',
        path: ['github'],
      })
      .default({ provider: 'local' })
      .describe('How the pull request is opened.'),
  })
  .describe('Configuration of one launch run (run_config.schema.json).');

export type RunConfig = z.output<typeof RunConfigSchema>;
export type RunConfigInput = z.input<typeof RunConfigSchema>;
