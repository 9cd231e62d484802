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
        headers: hasToken ? { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } : undefined,
      },
    },
  };
}

/** How the person who started the server reaches it from one client. */
export interface ClientSetup {
  client: string;
  /** Where the snippet goes (a file, a command line, a screen). */
  where: string;
  snippet: string;
}

/** A stdio command line that starts this same server: what clients that launch servers themselves need. */
export interface StdioCommand {
  command: string;
  args: readonly string[];
}

const AUTHORIZATION = `Authorization: Bearer ${TOKEN_PLACEHOLDER}`;

/**
 * One line per client people use, each in the form that client reads. Claude Desktop's config file only
 * starts local servers over stdio (its remote connectors are reached from Anthropic's cloud, which cannot see
 * a loopback URL), so it gets the stdio command of this very server instead of the URL: only when `stdio`
 * says what that command is.
 */
export function clientSetups(url: string, hasToken: boolean, stdio?: StdioCommand): ClientSetup[] {
  const headers = hasToken ? { headers: { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } } : {};
  const setups: (ClientSetup | undefined)[] = [
    {
      client: 'Claude Code',
      where: 'a terminal',
      snippet: `claude mcp add --transport http switchyard ${url}${hasToken ? ` --header "${AUTHORIZATION}"` : ''}`,
    },
    {
      client: 'Cursor',
      where: '~/.cursor/mcp.json',
      snippet: JSON.stringify(clientConfiguration(url, hasToken)),
    },
    {
      client: 'VS Code',
      where: '.vscode/mcp.json',
      snippet: JSON.stringify({ servers: { switchyard: { type: 'http', url, ...headers } } }),
    },
    stdio && {
      client: 'Claude Desktop',
      where: 'claude_desktop_config.json (it starts its own copy over stdio; add your keys under "env")',
      snippet: JSON.stringify({ mcpServers: { switchyard: { command: stdio.command, args: stdio.args } } }),
    },
    {
      client: 'MCP Inspector',
      where: 'a terminal (Node 22.19 or later)',
      snippet: `npx -y @modelcontextprotocol/inspector --transport http --server-url ${url}${hasToken ? ` --header "${AUTHORIZATION}"` : ''}`,
    },
  ];
  return setups.filter((setup) => setup !== undefined);
}

export interface HttpStartReport {
  hasToken: boolean;
  /** The command that starts this same server over stdio (the bin's own); none: no Claude Desktop setup. */
  stdio?: StdioCommand;
  /** Whether Ctrl-C (SIGINT) stops the server: only when it handles the signals itself. */
  stopsOnCtrlC: boolean;
}

export function describeHttpStart(url: string, { hasToken, stdio, stopsOnCtrlC }: HttpStartReport): string {
  const origin = new URL(url).origin;
  return [
    `switchyard: serving MCP over Streamable HTTP at ${url}`,
    `switchyard: health ${origin}/healthz, readiness ${origin}/readyz`,
    'switchyard: connect a client:',
    ...clientSetups(url, hasToken, stdio).map(
      (setup) => `  ${setup.client}, in ${setup.where}:
    ${setup.snippet}`,
    ),
    ...(hasToken ? [`switchyard: replace ${TOKEN_PLACEHOLDER} with the value of SWITCHYARD_TOKEN.`] : []),
    ...(stopsOnCtrlC ? ['switchyard: press Ctrl-C to stop.'] : []),
    '',
  ].join('\n');
}
