// HSL trip ids: `HSL:<route>_<yyyymmdd>_<day>_<direction 1|2>_<HHMM of the first departure>`.
import { compactDate, HELSINKI, zonedParts } from '../time.js';

const DAY_CODES = ['Su', 'Ma', 'Ti', 'Ke', 'To', 'Pe', 'La'];

export function hslTripId(routeGtfsId: string, directionId: '0' | '1', tripStartMs: number): string {
  const p = zonedParts(tripStartMs, HELSINKI);
  const day = DAY_CODES[p.weekday] ?? 'Ma';
  const hhmm = `${String(p.hour).padStart(2, '0')}${String(p.minute).padStart(2, '0')}`;
  return `${routeGtfsId}_${compactDate(tripStartMs, HELSINKI)}_${day}_${Number(directionId) + 1}_${hhmm}`;
}
