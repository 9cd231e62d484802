// TfL arrival predictions: `GET /StopPoint/{id}/Arrivals` and `GET /Line/{ids}/Arrivals/{stopPointId}`, both
// answering `Tfl.Api.Presentation.Entities.Prediction[]` (unsorted, as TfL sends them), relative to now.
import { dotNetUtcTimestamp } from '../time.js';
import { tflType } from './entities.js';

/** One line's service at a stop: its vehicles arrive every `headwaySeconds`, the first after `firstSeconds`. */
export interface ArrivalService {
  readonly lineId: string;
  readonly lineName: string;
  readonly modeName: string;
  readonly platformName: string;
  /** TfL's unified direction; empty on some routes (real answers do that). */
  readonly direction: 'inbound' | 'outbound' | '';
  readonly destinationNaptanId: string;
  readonly destinationName: string;
  readonly towards: string;
  readonly firstSeconds: number;
  readonly headwaySeconds: number;
  readonly count: number;
  readonly bearing: string;
}

export interface ArrivalStop {
  readonly naptanId: string;
  readonly stationName: string;
  readonly services: readonly ArrivalService[];
}

const tube = (lineId: string, lineName: string) => ({ lineId, lineName, modeName: 'tube' });
const bus = (lineId: string) => ({ lineId, lineName: lineId, modeName: 'bus' });

/** Stops with predictions: a tube station with three lines and four platforms, and a bus stop. */
export const ARRIVAL_STOPS: Readonly<Record<string, ArrivalStop>> = {
  '940GZZLUOXC': {
    naptanId: '940GZZLUOXC',
    stationName: 'Oxford Circus Underground Station',
    services: [
      {
        ...tube('victoria', 'Victoria'),
        platformName: 'Northbound - Platform 5',
        direction: 'outbound',
        destinationNaptanId: '940GZZLUWWL',
        destinationName: 'Walthamstow Central Underground Station',
        towards: 'Walthamstow Central',
        firstSeconds: 45,
        headwaySeconds: 120,
        count: 6,
        bearing: '',
      },
      {
        ...tube('victoria', 'Victoria'),
        platformName: 'Southbound - Platform 6',
        direction: 'inbound',
        destinationNaptanId: '940GZZLUBXN',
        destinationName: 'Brixton Underground Station',
        towards: 'Brixton',
        firstSeconds: 95,
        headwaySeconds: 120,
        count: 6,
        bearing: '',
      },
      {
        ...tube('central', 'Central'),
        platformName: 'Eastbound - Platform 3',
        direction: 'inbound',
        destinationNaptanId: '940GZZLUEPG',
        destinationName: 'Epping Underground Station',
        towards: 'Epping',
        firstSeconds: 20,
        headwaySeconds: 150,
        count: 5,
        bearing: '',
      },
      {
        ...tube('bakerloo', 'Bakerloo'),
        platformName: 'Northbound - Platform 4',
        direction: '',
        destinationNaptanId: '',
        destinationName: '',
        towards: 'Harrow & Wealdstone',
        firstSeconds: 180,
        headwaySeconds: 240,
        count: 4,
        bearing: '',
      },
    ],
  },
  '490000254W': {
    naptanId: '490000254W',
    stationName: 'Waterloo Station / Waterloo Road',
    services: [
      {
        ...bus('68'),
        platformName: 'W',
        direction: 'outbound',
        destinationNaptanId: '',
        destinationName: 'West Norwood',
        towards: 'Elephant & Castle',
        firstSeconds: 240,
        headwaySeconds: 600,
        count: 3,
        bearing: '180',
      },
      {
        ...bus('176'),
        platformName: 'W',
        direction: 'outbound',
        destinationNaptanId: '',
        destinationName: 'Penge',
        towards: 'Elephant & Castle',
        firstSeconds: 60,
        headwaySeconds: 480,
        count: 3,
        bearing: '180',
      },
    ],
  },
};

/** How long after its expected arrival a prediction stays valid (`timeToLive`), as TfL sends it. */
export const PREDICTION_LIFETIME_SECONDS = 30;

export interface ArrivalsQuery {
  readonly stop: ArrivalStop;
  /** Lower-case line ids of the Line route; undefined for the StopPoint route. */
  readonly lineIds?: readonly string[];
  /** The Line route's `direction` (inbound, outbound, all). */
  readonly direction?: string;
}

function wholeSecondUtc(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function prediction(stop: ArrivalStop, service: ArrivalService, index: number, nowMs: number) {
  const timeToStation = service.firstSeconds + index * service.headwaySeconds;
  const expected = nowMs + timeToStation * 1000;
  const vehicleId = `${service.lineId.toUpperCase()}${String(100 + index * 7)}`;
  const updated = dotNetUtcTimestamp(nowMs - 4_000);
  return {
    $type: tflType('Prediction'),
    id: `-${Math.abs(hash(`${stop.naptanId}${service.platformName}${index}`))}`,
    operationType: 1,
    vehicleId,
    naptanId: stop.naptanId,
    stationName: stop.stationName,
    lineId: service.lineId,
    lineName: service.lineName,
    platformName: service.platformName,
    direction: service.direction,
    bearing: service.bearing,
    destinationNaptanId: service.destinationNaptanId,
    destinationName: service.destinationName,
    timestamp: updated,
    timeToStation,
    currentLocation:
      index === 0 ? `Approaching ${stop.stationName.replace(/ Underground Station$/, '')}` : '',
    towards: service.towards,
    expectedArrival: wholeSecondUtc(expected),
    timeToLive: wholeSecondUtc(expected + PREDICTION_LIFETIME_SECONDS * 1000),
    modeName: service.modeName,
    timing: {
      $type: tflType('PredictionTiming'),
      countdownServerAdjustment: '00:00:00',
      source: '0001-01-01T00:00:00',
      insert: '0001-01-01T00:00:00',
      read: updated,
      sent: wholeSecondUtc(nowMs),
      received: '0001-01-01T00:00:00',
    },
  };
}

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (Math.imul(value, 31) + char.charCodeAt(0)) | 0;
  return value;
}

/** The Prediction[] TfL answers for the query, in TfL's (unsorted) order: grouped by service, latest first. */
export function buildArrivals(query: ArrivalsQuery, nowMs: number): Record<string, unknown>[] {
  const direction = query.direction?.toLowerCase() ?? 'all';
  const services = query.stop.services.filter(
    (service) =>
      (query.lineIds === undefined || query.lineIds.includes(service.lineId)) &&
      (direction === 'all' || service.direction === direction),
  );
  return services.flatMap((service) =>
    Array.from({ length: service.count }, (_, index) =>
      prediction(query.stop, service, index, nowMs),
    ).reverse(),
  );
}

/** Every line id the stops serve: the Line route answers 404 for any other. */
export const KNOWN_ARRIVAL_LINES: ReadonlySet<string> = new Set(
  Object.values(ARRIVAL_STOPS).flatMap((stop) => stop.services.map((service) => service.lineId)),
);
