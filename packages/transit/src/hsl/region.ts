import { SwitchyardError } from '@switchyard/contracts/errors';
import type { Coordinate } from '@switchyard/contracts/transit';
import type { RegionBounds } from '../config.js';

export function withinBounds(point: Coordinate, bounds: RegionBounds): boolean {
  return (
    point.lat >= bounds.minLat &&
    point.lat <= bounds.maxLat &&
    point.lon >= bounds.minLon &&
    point.lon <= bounds.maxLon
  );
}

function describeBounds(bounds: RegionBounds): string {
  return `${bounds.minLat}..${bounds.maxLat} N, ${bounds.minLon}..${bounds.maxLon} E`;
}

/** plan_trip's unsupported-region: the provider cannot route there. */
export function unsupportedRegion(message: string, bounds?: RegionBounds): SwitchyardError {
  return new SwitchyardError('validation', message, {
    code: 'unsupported-region',
    hint:
      bounds === undefined
        ? 'Choose points inside the area the provider covers.'
        : `Choose points inside the provider's area (${describeBounds(bounds)}).`,
  });
}

/** Throws unsupported-region when either end lies outside TRANSIT_REGION_BOUNDS. */
export function assertInRegion(
  ends: { origin: Coordinate; destination: Coordinate },
  bounds: RegionBounds,
): void {
  const outside = (['origin', 'destination'] as const).filter((side) => !withinBounds(ends[side], bounds));
  if (outside.length > 0) {
    throw unsupportedRegion(
      `${outside.join(' and ')} ${outside.length > 1 ? 'are' : 'is'} outside the area served`,
      bounds,
    );
  }
}
