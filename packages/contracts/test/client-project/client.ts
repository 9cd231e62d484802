// A client project's view of @switchyard/contracts: it imports types and schemas from the subpaths, as
// documented in the README. Compiled by test/client-types.test.ts; a broken export map or a type that no
// longer matches the contract fails that test.
import type { HslErrorPayload, LaunchErrorPayload } from '@switchyard/contracts/errors';
import { GET_DEPARTURES_ERROR_TABLE, SwitchyardError } from '@switchyard/contracts/errors';
import type { LaunchStartRunInput, RunStatus } from '@switchyard/contracts/launch-runs';
import { RunConfigSchema } from '@switchyard/contracts/launch-runs';
import { launchRuns } from '@switchyard/contracts';

const input: LaunchStartRunInput = {
  run_config: {
    schema_version: '1.0',
    product_slug: 'acme-cli',
    product_name: 'Acme CLI',
    source: { repo: 'https://example.com/acme.git' },
    site: { repo: '/srv/site' },
    allowed_paths: ['content/**'],
  },
  idempotency_key: 'release-1.2.0',
};

export const parsed = RunConfigSchema.parse(input.run_config);
export const retries: boolean = parsed.allow_inference;
export const sections: readonly string[] = parsed.required_sections;

export function describeStatus(status: RunStatus): string {
  return `${status.run_id}: ${status.state} (${status.open_issues.length} open issues)`;
}

export function isRetryable(payload: HslErrorPayload): boolean {
  return GET_DEPARTURES_ERROR_TABLE.codes[payload.error.code].retryable;
}

export function launchCode(payload: LaunchErrorPayload): string {
  return payload.error.code;
}

export const error = new SwitchyardError('rate-limited', 'slow down', { retryAfterMs: 1000 });
export const sameSchema: typeof RunConfigSchema = launchRuns.RunConfigSchema;

// @ts-expect-error: product_slug is required by the contract.
export const missingSlug: LaunchStartRunInput['run_config'] = { schema_version: '1.0' };
