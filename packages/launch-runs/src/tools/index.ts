import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { DomainContext } from '@switchyard/server-kit';
import { registerCancelTool } from './cancel.js';
import { registerFixNextTool } from './fix-next.js';
import { registerGetArtifactTool } from './get-artifact.js';
import { registerGetStatusTool } from './get-status.js';
import type { LaunchToolDeps } from './launch-tool.js';
import { registerListRunsTool } from './list-runs.js';
import { registerOpenPrTool } from './open-pr.js';
import { registerLaunchResources } from './resources.js';
import { registerResumeTool } from './resume.js';
import { registerStartRunTool } from './start-run.js';
import { registerValidateTool } from './validate.js';

/** The nine launch_* tools of seed 002 and the run resources. */
export function registerLaunchTools(server: McpServer, ctx: DomainContext, deps: LaunchToolDeps): void {
  registerStartRunTool(server, ctx, deps);
  registerGetStatusTool(server, ctx, deps);
  registerGetArtifactTool(server, ctx, deps);
  registerValidateTool(server, ctx, deps);
  registerFixNextTool(server, ctx, deps);
  registerResumeTool(server, ctx, deps);
  registerCancelTool(server, ctx, deps);
  registerOpenPrTool(server, ctx, deps);
  registerListRunsTool(server, ctx, deps);
  registerLaunchResources(server, deps.service);
}
