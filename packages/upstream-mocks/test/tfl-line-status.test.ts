// The TfL line status routes: Line[] as TfL answers them, by ids, by mode and over a date range, with 404
// ApiError for what TfL does not know, recorded as tfl-line-status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTflMock, type TflMock } from '../src/index.js';

let tfl: TflMock;
beforeAll(async () => {
  tfl = await startTflMock();
});
afterAll(async () => {
  await tfl.close();
});

async function get(path: string): Promise<{ status: number; body: unknown; cacheControl: string | null }> {
  const response = await fetch(`${tfl.url}${path}${path.includes('?') ? '&' : '?'}app_key=k`);
  return {
    status: response.status,
    body: await response.json(),
    cacheControl: response.headers.get('cache-control'),
  };
}

type Line = { $type: string; id: string; modeName: string; lineStatuses: Record<string, unknown>[] };

describe('TfL mock: line status', () => {
  it('by ids: the lines asked for, in TfL entity shape, with a Cache-Control max-age', async () => {
    const { status, body, cacheControl } = await get('/Line/Victoria,central/Status');
    expect(status).toBe(200);
    expect(cacheControl).toContain('max-age=30');
    const lines = body as Line[];
    expect(lines.map((line) => line.id)).toEqual(['victoria', 'central']);
    expect(lines[0]).toMatchObject({
      $type: 'Tfl.Api.Presentation.Entities.Line, Tfl.Api.Presentation.Entities',
      name: 'Victoria',
      modeName: 'tube',
      disruptions: [],
      lineStatuses: [
        {
          $type: 'Tfl.Api.Presentation.Entities.LineStatus, Tfl.Api.Presentation.Entities',
          statusSeverity: 10,
          statusSeverityDescription: 'Good Service',
          validityPeriods: [],
        },
      ],
    });
    const [delay] = lines[1]!.lineStatuses;
    expect(delay).toMatchObject({
      lineId: 'central',
      statusSeverity: 9,
      statusSeverityDescription: 'Minor Delays',
      validityPeriods: [{ isNow: true }],
      disruption: { category: 'RealTime', closureText: 'minorDelays' },
    });
    const request = tfl.requests.at(-1)!;
    expect(request).toMatchObject({ endpoint: 'tfl-line-status', params: { ids: 'Victoria,central' } });
  });

  it('by mode: every line of the modes', async () => {
    const lines = (await get('/Line/Mode/bus,elizabeth-line/Status')).body as Line[];
    expect(lines.map((line) => [line.id, line.modeName])).toEqual([
      ['elizabeth', 'elizabeth-line'],
      ['25', 'bus'],
      ['n29', 'bus'],
    ]);
    expect(lines[1]!.lineStatuses[0]).toMatchObject({
      statusSeverity: 18,
      statusSeverityDescription: 'No Issues',
    });
  });

  it('over a date range: the planned closure when the range covers the next weekend, else good service', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const week = (await get(`/Line/northern/Status/${day(0)}T00:00:00/to/${day(8)}T23:59:59`)).body as Line[];
    expect(week[0]!.lineStatuses[0]).toMatchObject({
      statusSeverity: 5,
      statusSeverityDescription: 'Part Closure',
      validityPeriods: [{ isNow: false }],
      disruption: { category: 'PlannedWork' },
    });
    const now = (await get('/Line/northern/Status')).body as Line[];
    expect(now[0]!.lineStatuses[0]).toMatchObject({ statusSeverity: 10 });
  });

  it('an unknown line or mode is 404 ApiError naming it', async () => {
    const line = await get('/Line/victoria,hogwarts/Status');
    expect(line.status).toBe(404);
    expect(line.body).toMatchObject({ httpStatusCode: 404, message: expect.stringContaining('hogwarts') });
    expect((await get('/Line/Mode/submarine/Status')).status).toBe(404);
  });
});
