import { describeIssues, SwitchyardError } from '@switchyard/contracts/errors';
import { launchErrorPayload, RunConfigSchema } from '@switchyard/contracts/launch-runs';
import type { RequestCall } from '@switchyard/server-kit';
import type { LaunchCallState } from '../open.js';
import { prompt } from '../tools/spec.js';

/** How many recent runs the product-slug completion looks at. */
const RECENT_RUNS = 200;

/** Product slugs of recent runs that start with what was typed (the same product is launched again and again). */
async function recentProductSlugs(value: string, call: RequestCall<LaunchCallState>): Promise<string[]> {
  const runs = await call.state.runs.recentRuns(call.principal, { limit: RECENT_RUNS });
  const slugs = new Set(runs.map((run) => run.productSlug));
  return [...slugs].filter((slug) => slug.startsWith(value.toLowerCase()));
}

const { shape } = RunConfigSchema;
/** The run_config field each argument becomes: the prompt refuses what launch_start_run would refuse. */
const ARGUMENT_FIELDS = {
  product_slug: shape.product_slug,
  product_name: shape.product_name,
  source_repo: shape.source.shape.repo,
  site_repo: shape.site.shape.repo,
};

function assertArguments(args: Record<keyof typeof ARGUMENT_FIELDS, string>): void {
  const problems = Object.entries(ARGUMENT_FIELDS).flatMap(([name, field]) => {
    const parsed = field.safeParse(args[name as keyof typeof ARGUMENT_FIELDS]);
    return parsed.success ? [] : [`${name}: ${describeIssues(parsed.error.issues)}`];
  });
  if (problems.length > 0) {
    throw new SwitchyardError('validation', problems.join('; '), { code: 'INVALID_INPUT' });
  }
}

/** "Launch docs for a repository": the whole loop of launch tools, in the order a launch needs them. */
export const launchDocsPrompt = prompt({
  name: 'launch_docs',
  title: 'Launch documentation for a repository',
  description:
    "Drafts a product's documentation pages from its source repository into a site repository, validates " +
    'and fixes them, and stops before opening the pull request so you can review.',
  arguments: [
    {
      name: 'product_slug',
      description: 'The product, e.g. tallyho',
      required: true,
      complete: recentProductSlugs,
    },
    { name: 'product_name', description: 'Its display name, e.g. Tallyho', required: true },
    {
      name: 'source_repo',
      description: 'Its source repository (a URL or a path the server allows)',
      required: true,
    },
    { name: 'site_repo', description: 'The documentation site repository', required: true },
  ],
  tools: [
    'launch_start_run',
    'launch_get_status',
    'launch_fix_next',
    'launch_get_artifact',
    'launch_open_pr',
  ],
  get: async (args) => {
    assertArguments(args);
    const { product_slug, product_name, source_repo, site_repo } = args;
    const runConfig = {
      schema_version: '1.0',
      product_slug,
      product_name,
      source: { repo: source_repo },
      site: { repo: site_repo },
      required_sections: ['products', 'docs'],
      allowed_paths: ['content/products/**', 'content/docs/**'],
    };
    return [
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            `Launch the documentation of ${product_name}. Call launch_start_run with ` +
            `{"run_config":${JSON.stringify(runConfig)}} (adjust required_sections and allowed_paths to the ` +
            "site's layout if its error says so). Poll launch_get_status until the run is VALIDATING or " +
            'READY_FOR_PR. While it is VALIDATING, call launch_fix_next (one fix at a time) until it is ' +
            'READY_FOR_PR or no fix is left, and tell me what each fix changed. Then show me the drafted pages ' +
            '(launch_get_artifact) and the validation report, and ask me before calling launch_open_pr.',
        },
      },
    ];
  },
  errorPayload: (error) => launchErrorPayload(error),
});
