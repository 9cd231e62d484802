// Saved places as the seeds' "user variable store": labels in get_departures, plan_trip and
// get_london_arrivals, and saved keys given as planJourney's from/to, resolve here.
import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  SAVED_PLACE_TYPES,
  SavedPlaceKeySchema,
  type Language,
  type LocationRef,
  type PlaceInput,
  type SavedPlaceValue,
} from '@switchyard/contracts/transit';
import type { RegionBounds } from '../config.js';
import type { Geocoder } from '../hsl/geocoding.js';
import type { SavedPlaceProbe } from './database.js';
import type { LoadSavedPlaceStore, SavedPlaceStore } from './store.js';

const KIND_NAMES: Readonly<Record<SavedPlaceValue['type'], string>> = {
  location: 'a location',
  stop: 'an HSL stop',
  'tfl-stop': 'a London (TfL) stop',
};

/** The saved place `key` when it is of `type`; a validation error that says what to do otherwise. */
async function savedOfType<T extends SavedPlaceValue['type']>(
  store: SavedPlaceStore,
  principal: string,
  key: string,
  type: T,
  hints: { missing: string; wrongType: string },
): Promise<Extract<SavedPlaceValue, { type: T }>> {
  const place = await store.get(principal, key);
  if (place === undefined) {
    throw new SwitchyardError('validation', `No saved place named "${key}"`, { hint: hints.missing });
  }
  if (place.value.type !== type) {
    throw new SwitchyardError(
      'validation',
      `The saved place "${key}" is ${KIND_NAMES[place.value.type]}, not ${KIND_NAMES[type]}`,
      { hint: hints.wrongType },
    );
  }
  return place.value as Extract<SavedPlaceValue, { type: T }>;
}

/** get_departures' `stop.type='label'`: the stop id a saved stop holds. */
export async function resolveStopLabel(
  store: SavedPlaceStore,
  principal: string,
  key: string,
): Promise<string> {
  const stop = await savedOfType(store, principal, key, 'stop', {
    missing:
      'Save the stop first with save_user_variable ({ type: "stop", stopId }), or pass stop.type "id".',
    wrongType: 'Use find_stops to get an HSL stop id, and save that as a stop.',
  });
  return stop.stopId;
}

/** get_london_arrivals' `stop.type='label'`: the NaPTAN id a saved tfl-stop holds. */
export async function resolveTflStopLabel(
  store: SavedPlaceStore,
  principal: string,
  key: string,
): Promise<string> {
  const stop = await savedOfType(store, principal, key, 'tfl-stop', {
    missing:
      'Save the stop first with save_user_variable ({ type: "tfl-stop", naptanId }), or pass stop.type "id".',
    wrongType: 'Save the London stop as { type: "tfl-stop", naptanId: "940GZZLUOXC" }, or pass its id.',
  });
  return stop.naptanId;
}

type SavedOf<T extends SavedPlaceValue['type']> = Extract<SavedPlaceValue, { type: T }>;

/**
 * What a saved place means to TfL's JourneyResults, by kind: a London stop its NaPTAN id, a location "lat,lon"
 * (TfL reads coordinates in that form). An HSL stop means nothing to TfL: not resolved.
 */
const TFL_JOURNEY_PLACE: { [T in SavedPlaceValue['type']]: ((value: SavedOf<T>) => string) | undefined } = {
  'tfl-stop': (value) => value.naptanId,
  location: (value) => `${value.lat.toFixed(6)},${value.lon.toFixed(6)}`,
  stop: undefined,
};
const TFL_JOURNEY_KINDS = SAVED_PLACE_TYPES.filter((type) => TFL_JOURNEY_PLACE[type] !== undefined);

export interface JourneyPlaceResolver {
  savedPlaces: LoadSavedPlaceStore;
  hasSavedPlaces: SavedPlaceProbe;
  principal: string;
}

/**
 * planJourney's `from`/`to`: the caller's own saved key, exactly (as keys compare: case-sensitive, NFC), of kind
 * tfl-stop or location becomes what TfL resolves; every other string (not a key of this caller, or an HSL
 * stop) goes to TfL as given. The store loads only for a caller who has saved places of those kinds and a
 * string that can be a key (at most 50 characters), so planJourney with free text stays off drizzle.
 */
export async function resolveJourneyPlace(text: string, deps: JourneyPlaceResolver): Promise<string> {
  const key = SavedPlaceKeySchema.safeParse(text);
  if (!key.success || !(await deps.hasSavedPlaces(deps.principal, TFL_JOURNEY_KINDS))) return text;
  const saved = await (await deps.savedPlaces()).get(deps.principal, key.data);
  if (saved === undefined) return text;
  const toTfl = TFL_JOURNEY_PLACE[saved.value.type] as ((value: SavedPlaceValue) => string) | undefined;
  return toTfl === undefined ? text : toTfl(saved.value);
}

export interface LocationResolver {
  /** Loaded only for a label: coordinates never touch saved places. */
  savedPlaces: LoadSavedPlaceStore;
  principal: string;
  /** Used for labels that are not saved places; without it such labels are a validation error. */
  geocoder?: Geocoder;
  language: Language;
  bounds: RegionBounds;
  signal?: AbortSignal;
}

/** plan_trip's origin/destination as a LocationRef, enriched as seed 003 lists. */
export async function resolveLocation(place: PlaceInput, deps: LocationResolver): Promise<LocationRef> {
  if (place.type === 'coords') return { coordinate: place.value, rawSource: 'input' };
  const key = place.value;
  const saved = await (await deps.savedPlaces()).get(deps.principal, key);
  if (saved !== undefined) {
    if (saved.value.type !== 'location') {
      throw new SwitchyardError('validation', `The saved place "${key}" is a stop, not a location`, {
        hint: 'plan_trip needs a saved location ({ type: "location", lat, lon }) or coordinates.',
      });
    }
    const { lat, lon, name, address } = saved.value;
    return {
      coordinate: { lat, lon },
      rawSource: 'variable',
      label: key,
      name,
      address,
    };
  }
  const found =
    deps.geocoder === undefined
      ? undefined
      : await deps.geocoder.search(key, {
          language: deps.language,
          bounds: deps.bounds,
          signal: deps.signal,
        });
  if (found === undefined) {
    throw new SwitchyardError(
      'validation',
      `"${key}" is neither a saved place nor a place the geocoder knows`,
      {
        hint: 'Save it with save_user_variable ({ type: "location", lat, lon }), or pass coordinates.',
      },
    );
  }
  return {
    coordinate: found.coordinate,
    rawSource: 'geocoder',
    label: key,
    name: found.name,
    address: found.address,
  };
}
