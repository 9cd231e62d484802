// Itinerary plans for each planConnection scenario, as specs relative to the search time.
import type { PlanVariant } from './context.js';
import type { TransitModeName } from './data.js';

export type LegRealtime =
  | { readonly state: 'SCHEDULED' }
  | { readonly state: 'UPDATED'; readonly delay: number }
  | { readonly state: 'CANCELED' };

/** `origin`, `destination`, or a stop's gtfsId. */
export type PlaceRef = string;

export interface LegSpec {
  readonly mode: 'WALK' | TransitModeName;
  readonly from: PlaceRef;
  readonly to: PlaceRef;
  readonly minutes: number;
  /** Metres. */
  readonly distance: number;
  readonly route?: string;
  readonly directionId?: '0' | '1';
  readonly realtime?: LegRealtime;
  /** Minutes spent waiting before this leg starts. */
  readonly waitBefore?: number;
}

export interface ItinerarySpec {
  /** Minutes after the search time at which the itinerary starts. */
  readonly departIn: number;
  readonly legs: readonly LegSpec[];
}

const S: LegRealtime = { state: 'SCHEDULED' };
const CANCELED: LegRealtime = { state: 'CANCELED' };
const late = (delay: number): LegRealtime => ({ state: 'UPDATED', delay });

const OOPPERA = 'HSL:1130446';
const PASILAN_ASEMA = 'HSL:1174403';
const HELSINKI_PLATFORM = 'HSL:1020502';
const PASILA_PLATFORM = 'HSL:1174502';
const ARKADIAN_PUISTO = 'HSL:1040129';
const RAUTATIENTORI = 'HSL:1020453';

function tram(departIn: number, realtime: LegRealtime, walkIn = 4, walkOut = 3): ItinerarySpec {
  return {
    departIn,
    legs: [
      { mode: 'WALK', from: 'origin', to: OOPPERA, minutes: walkIn, distance: Math.round(walkIn * 78.5) },
      {
        mode: 'TRAM',
        from: OOPPERA,
        to: PASILAN_ASEMA,
        minutes: 8,
        distance: 2410,
        route: 'HSL:1009',
        directionId: '0',
        realtime,
      },
      {
        mode: 'WALK',
        from: PASILAN_ASEMA,
        to: 'destination',
        minutes: walkOut,
        distance: Math.round(walkOut * 78.5),
      },
    ],
  };
}

/** The I train from Helsinki to Pasila, 5 minutes. */
function railHelsinkiPasila(realtime: LegRealtime): LegSpec {
  return {
    mode: 'RAIL',
    from: HELSINKI_PLATFORM,
    to: PASILA_PLATFORM,
    minutes: 5,
    distance: 3140,
    route: 'HSL:3001I',
    directionId: '0',
    realtime,
  };
}

function train(departIn: number, realtime: LegRealtime, walkIn = 6, walkOut = 4): ItinerarySpec {
  return {
    departIn,
    legs: [
      {
        mode: 'WALK',
        from: 'origin',
        to: HELSINKI_PLATFORM,
        minutes: walkIn,
        distance: Math.round(walkIn * 79.5),
      },
      railHelsinkiPasila(realtime),
      {
        mode: 'WALK',
        from: PASILA_PLATFORM,
        to: 'destination',
        minutes: walkOut,
        distance: Math.round(walkOut * 79.5),
      },
    ],
  };
}

function busThenTrain(departIn: number, bus: LegRealtime, rail: LegRealtime): ItinerarySpec {
  return {
    departIn,
    legs: [
      { mode: 'WALK', from: 'origin', to: ARKADIAN_PUISTO, minutes: 3, distance: 240 },
      {
        mode: 'BUS',
        from: ARKADIAN_PUISTO,
        to: RAUTATIENTORI,
        minutes: 6,
        distance: 1320,
        route: 'HSL:1055',
        directionId: '0',
        realtime: bus,
      },
      { mode: 'WALK', from: RAUTATIENTORI, to: HELSINKI_PLATFORM, minutes: 2, distance: 150 },
      { ...railHelsinkiPasila(rail), waitBefore: 3 },
      { mode: 'WALK', from: PASILA_PLATFORM, to: 'destination', minutes: 4, distance: 300 },
    ],
  };
}

const directWalk: ItinerarySpec = {
  departIn: 0,
  legs: [{ mode: 'WALK', from: 'origin', to: 'destination', minutes: 36, distance: 2900 }],
};

/** Itineraries for each data scenario; `call` is the index of the plan request within the scenario. */
export function itinerarySpecs(variant: PlanVariant, call: number): readonly ItinerarySpec[] {
  switch (variant) {
    case 'mixed':
      return [tram(2, late(60)), train(5, S), busThenTrain(1, late(120), S), tram(12, late(0))];
    case 'realtime':
      return [tram(2, late(30)), train(5, late(0)), busThenTrain(1, late(45), late(-20)), tram(12, late(15))];
    case 'scheduled':
      return [tram(2, S), train(5, S), busThenTrain(1, S, S), tram(12, S)];
    case 'cancelled-leg':
      return [tram(2, late(30)), train(5, CANCELED), busThenTrain(1, late(45), late(0)), tram(12, late(0))];
    case 'delayed':
      return [tram(2, late(420)), train(5, late(0)), busThenTrain(1, late(180), S), tram(12, late(10))];
    case 'duplicates':
      return [
        tram(2, late(60)),
        tram(2, late(60)),
        train(5, S),
        busThenTrain(1, late(120), S),
        busThenTrain(1, late(120), S),
      ];
    case 'long-walks':
      return [train(0, late(0), 22, 12), tram(1, late(30), 12, 6), tram(2, late(0)), directWalk];
    case 'disrupted-then-clear':
      return call === 0
        ? [tram(2, late(540)), train(5, CANCELED), busThenTrain(1, late(360), S)]
        : [train(9, late(0))];
    case 'no-transit-connection':
    case 'outside-bounds':
    case 'location-not-found':
      return [];
  }
}
