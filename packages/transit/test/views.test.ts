// The MCP Apps views of transit's answers: which tools name one in tools/list, and that each is served (both
// protocol eras, the standalone server as the harness runs it).
import { describe, expect, it } from 'vitest';
import { viewsNamedBy } from '@switchyard/server-kit/testing';
import { useHarness } from './helpers.js';

/** Tool -> the `ui://` resource of its view. */
const VIEWS: Record<string, string> = {
  get_line_status: 'ui://switchyard/line-status',
  get_departures: 'ui://switchyard/departure-board',
  get_london_arrivals: 'ui://switchyard/departure-board',
  plan_trip: 'ui://switchyard/itinerary',
  planJourney: 'ui://switchyard/itinerary',
};

describe.each(['modern', 'legacy'] as const)('transit views in the %s protocol era', (era) => {
  const h = useHarness({ era });

  it('names each view on its tools, and no view on the others', async () => {
    const { tools } = await h.client.listTools();
    expect(viewsNamedBy(tools)).toEqual(VIEWS);
  });

  it('serves every view it names as an MCP App page', async () => {
    for (const uri of new Set(Object.values(VIEWS))) {
      const { contents } = await h.client.readResource({ uri });
      expect(contents[0]).toMatchObject({ uri, mimeType: 'text/html;profile=mcp-app' });
    }
  });
});
