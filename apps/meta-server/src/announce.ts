import type { DomainDecision } from './domains.js';

/** What `switchyard` tells the person who started it (stderr: stdout is the MCP channel on stdio). */
export function describeDomains(decisions: readonly DomainDecision[]): string {
  const lines = decisions.map(
    (decision) =>
      `  ${decision.mount ? 'mounted' : 'skipped'} ${decision.name.padEnd(18)} ${decision.reason}`,
  );
  return `switchyard: domains\n${lines.join('\n')}\n`;
}

/** Shown instead of the token: the output may end up in a terminal log or a screenshot. */
export const TOKEN_PLACEHOLDER = '<SWITCHYARD_TOKEN>';

/** An `mcpServers` entry for clients that speak Streamable HTTP (Cursor, VS Code, the MCP Inspector...). */
export function clientConfiguration(url: string, hasToken: boolean): Record<string, unknown> {
  return {
    mcpServers: {
      switchyard: {
        url,
        ...(hasToken ? { headers: { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } } : {}),
      },
    },
  };
}

export function describeHttpStart(url: string, hasToken: boolean): string {
  const config = JSON.stringify(clientConfiguration(url, hasToken), null, 2);
  const origin = new URL(url).origin;
  return [
    `switchyard: serving MCP over Streamable HTTP at ${url}`,
    `switchyard: health ${origin}/healthz, readiness ${origin}/readyz`,
    'switchyard: paste this into your MCP client configuration:',
    config,
    ...(hasToken ? [`switchyard: replace ${TOKEN_PLACEHOLDER} with the value of SWITCHYARD_TOKEN.`] : []),
    'switchyard: press Ctrl-C to stop.',
    '',
  ].join('\n');
}
