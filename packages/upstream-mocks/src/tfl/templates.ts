// The seven journeys of the default ItineraryResult, as leg templates relative to the search time.
import type { TflLineKey, TflStationKey } from './data.js';

export type End = TflStationKey | 'origin' | 'destination';

export interface LegTemplate {
  readonly mode: 'walking' | 'tube' | 'bus' | 'national-rail';
  readonly minutes: number;
  readonly from: End;
  readonly to: End;
  readonly line?: TflLineKey;
  readonly towards?: string;
  /** Metres; walking legs only (transit legs carry no distance). */
  readonly distance?: number;
  readonly streets?: readonly [string, string];
  readonly disrupted?: boolean;
  readonly plannedWorks?: boolean;
}

export interface FareTemplate {
  readonly totalCost: number;
  readonly lowZone: number;
  readonly highZone: number;
  readonly offPeak: number;
  readonly hopper: boolean;
  readonly modeType: string;
  readonly tapAt: TflStationKey;
}

export interface JourneyTemplate {
  readonly departInMinutes: number;
  readonly legs: readonly LegTemplate[];
  readonly fare?: FareTemplate;
}

/** Durations in response order: 34, 27, 41, 27, 52, 30, 38 minutes. */
export const JOURNEY_TEMPLATES: readonly JourneyTemplate[] = [
  {
    departInMinutes: 4,
    legs: [
      { mode: 'walking', minutes: 5, from: 'origin', to: 'euston', distance: 350 },
      {
        mode: 'tube',
        minutes: 10,
        from: 'euston',
        to: 'greenPark',
        line: 'victoria',
        towards: 'Brixton Underground Station',
      },
      {
        mode: 'tube',
        minutes: 12,
        from: 'greenPark',
        to: 'waterloo',
        line: 'jubilee',
        towards: 'Stratford Underground Station',
        disrupted: true,
      },
      {
        mode: 'walking',
        minutes: 7,
        from: 'waterloo',
        to: 'destination',
        distance: 480,
        streets: ['York Road', 'Waterloo Road'],
      },
    ],
    fare: {
      totalCost: 280,
      lowZone: 1,
      highZone: 1,
      offPeak: 270,
      hopper: false,
      modeType: 'Metro',
      tapAt: 'euston',
    },
  },
  {
    departInMinutes: 2,
    legs: [
      { mode: 'walking', minutes: 3, from: 'origin', to: 'euston', distance: 230 },
      {
        mode: 'tube',
        minutes: 17,
        from: 'euston',
        to: 'waterloo',
        line: 'northern',
        towards: 'Battersea Power Station Underground Station',
      },
      {
        mode: 'walking',
        minutes: 7,
        from: 'waterloo',
        to: 'destination',
        distance: 480,
        streets: ['York Road', 'Waterloo Road'],
      },
    ],
    fare: {
      totalCost: 280,
      lowZone: 1,
      highZone: 1,
      offPeak: 270,
      hopper: false,
      modeType: 'Metro',
      tapAt: 'euston',
    },
  },
  {
    departInMinutes: 1,
    legs: [
      { mode: 'walking', minutes: 4, from: 'origin', to: 'eustonBusStop', distance: 300 },
      {
        mode: 'bus',
        minutes: 31,
        from: 'eustonBusStop',
        to: 'waterlooBusStop',
        line: 'bus68',
        towards: 'West Norwood',
      },
      {
        mode: 'walking',
        minutes: 6,
        from: 'waterlooBusStop',
        to: 'destination',
        distance: 420,
        streets: ['Waterloo Road', 'Baylis Road'],
      },
    ],
    fare: {
      totalCost: 175,
      lowZone: 0,
      highZone: 0,
      offPeak: 175,
      hopper: true,
      modeType: 'Bus',
      tapAt: 'eustonBusStop',
    },
  },
  {
    departInMinutes: 6,
    legs: [
      { mode: 'walking', minutes: 2, from: 'origin', to: 'euston', distance: 160 },
      {
        mode: 'tube',
        minutes: 14,
        from: 'euston',
        to: 'londonBridge',
        line: 'northern',
        towards: 'Morden Underground Station',
      },
      {
        mode: 'walking',
        minutes: 11,
        from: 'londonBridge',
        to: 'destination',
        distance: 850,
        streets: ['Borough High Street', 'Southwark Street'],
      },
    ],
  },
  {
    departInMinutes: 0,
    legs: [
      {
        mode: 'walking',
        minutes: 52,
        from: 'origin',
        to: 'destination',
        distance: 4100,
        streets: ['Gray\u2019s Inn Road', 'Kingsway'],
      },
    ],
  },
  {
    departInMinutes: 8,
    legs: [
      { mode: 'walking', minutes: 4, from: 'origin', to: 'euston', distance: 300 },
      {
        mode: 'tube',
        minutes: 6,
        from: 'euston',
        to: 'oxfordCircus',
        line: 'victoria',
        towards: 'Brixton Underground Station',
      },
      {
        mode: 'tube',
        minutes: 9,
        from: 'oxfordCircus',
        to: 'waterloo',
        line: 'bakerloo',
        towards: 'Elephant & Castle Underground Station',
        plannedWorks: true,
      },
      {
        mode: 'walking',
        minutes: 11,
        from: 'waterloo',
        to: 'destination',
        distance: 820,
        streets: ['York Road', 'Westminster Bridge Road'],
      },
    ],
    fare: {
      totalCost: 280,
      lowZone: 1,
      highZone: 1,
      offPeak: 270,
      hopper: false,
      modeType: 'Metro',
      tapAt: 'euston',
    },
  },
  {
    departInMinutes: 3,
    legs: [
      {
        mode: 'walking',
        minutes: 3,
        from: 'origin',
        to: 'stPancrasRail',
        distance: 240,
        streets: ['Pancras Road', 'Midland Road'],
      },
      {
        mode: 'national-rail',
        minutes: 14,
        from: 'stPancrasRail',
        to: 'blackfriarsRail',
        line: 'thameslink',
        towards: 'Brighton Rail Station',
      },
      {
        mode: 'walking',
        minutes: 21,
        from: 'blackfriarsRail',
        to: 'destination',
        distance: 1600,
        streets: ['Blackfriars Bridge', 'Stamford Street'],
      },
    ],
  },
];
