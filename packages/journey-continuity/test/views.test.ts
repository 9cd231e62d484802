// The MCP Apps view of journey answers: query_journey_history names the journey timeline in tools/list (and
// no other tool names a view), and the server serves it, in both protocol eras.
import { afterEach, describe, expect, it } from 'vitest';
import { viewsNamedBy } from '@switchyard/server-kit/testing';
import { startHarness, type Harness } from './helpers.js';

const VIEWS: Record<string, string> = { query_journey_history: 'ui://switchyard/journey-timeline' };

describe.each(['modern', 'legacy'] as const)('journey views in the %s protocol era', (era) => {
  let h: Harness | undefined;
  afterEach(() => h?.stop());

  it('names the timeline on query_journey_history only, and serves it as an MCP App page', async () => {
    h = await startHarness({ era });
    const { tools } = await h.client.listTools();
    expect(viewsNamedBy(tools)).toEqual(VIEWS);
    const { contents } = await h.client.readResource({ uri: VIEWS.query_journey_history! });
    expect(contents[0]).toMatchObject({
      uri: VIEWS.query_journey_history,
      mimeType: 'text/html;profile=mcp-app',
    });
  });
});
