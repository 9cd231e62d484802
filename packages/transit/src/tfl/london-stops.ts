// find_london_stops: TfL's stop points as the contract's envelope, at most `limit`, with truncated-results.
import type { FindLondonStopsOutput, FindLondonStopsRequest } from '@switchyard/contracts/transit';
import type { StopsSource } from './stops-client.js';
import { tflAnswer } from './tfl-answer.js';

export async function findLondonStops(
  source: StopsSource,
  request: FindLondonStopsRequest,
  signal?: AbortSignal,
): Promise<FindLondonStopsOutput> {
  const cached = await tflAnswer(() => source.find(request, signal));
  const { stops, total } = cached.value;
  const shown = stops.slice(0, request.limit);
  const where =
    request.name !== undefined ? `matching "${request.name}"` : `within ${request.radiusMeters} m`;
  return {
    success: true,
    code: 'OK',
    message:
      shown.length === 0
        ? `TfL knows no stop ${where}.`
        : `${shown.length} ${shown.length === 1 ? 'stop' : 'stops'} ${where}; each id works for ` +
          'get_london_arrivals and as planJourney from/to.',
    stops: shown,
    ...(total > shown.length
      ? {
          warnings: [
            {
              code: 'truncated-results' as const,
              message: `${total} stops matched; the first ${shown.length} are shown (limit).`,
            },
          ],
        }
      : {}),
  };
}
