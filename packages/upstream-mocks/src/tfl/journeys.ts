// Builds TfL `ItineraryResult` bodies: seven journeys with unsorted durations (and ties),
// fares on some journeys only, one disrupted leg, times in London local time without an offset.
import { compactDate, localDateTime, LONDON, zonedParts } from '../time.js';
import { TFL_LINES, TFL_STATIONS } from './data.js';
import {
  identifier,
  locationCoords,
  locationName,
  modeIdentifier,
  routeOption,
  stopPointEntity,
  tflType,
} from './entities.js';
import type { TflLocation } from './entities.js';
import { JOURNEY_TEMPLATES } from './templates.js';
import type { End, FareTemplate, JourneyTemplate, LegTemplate } from './templates.js';

const DISRUPTION_TEXT =
  'Jubilee Line: Minor delays between Green Park and Stratford due to an earlier faulty train at Canary Wharf. GOOD SERVICE on the rest of the line.';

export interface JourneyRequest {
  readonly from: TflLocation;
  readonly to: TflLocation;
  readonly fromText: string;
  readonly toText: string;
  /** Requested instant (ms), already rounded to the minute. */
  readonly dateTimeMs: number;
  readonly timeIs: 'Departing' | 'Arriving';
  /** Query string of the request without `app_key`, for the echoed URIs. */
  readonly queryWithoutKey: string;
}

function endLocation(end: End, request: JourneyRequest): TflLocation {
  if (end === 'origin') return request.from;
  if (end === 'destination') return request.to;
  return { kind: 'station', station: TFL_STATIONS[end] };
}

function walkingSteps(template: LegTemplate, from: TflLocation, to: TflLocation): Record<string, unknown>[] {
  const distance = template.distance ?? 0;
  const [first, second] = template.streets ?? ['Euston Road', 'Eversholt Street'];
  const firstDistance = Math.round(distance * 0.6);
  const a = locationCoords(from);
  const b = locationCoords(to);
  const seconds = (m: number): number => Math.round(m / 1.25);
  const describe = (verb: string, street: string, metres: number): string => {
    const total = seconds(metres);
    return `${verb} ${street} for ${metres} metres (${Math.floor(total / 60)} minutes, ${total % 60} seconds).`;
  };
  return [
    {
      $type: tflType('InstructionStep'),
      description: describe('Continue along', first, firstDistance),
      turnDirection: 'STRAIGHT',
      streetName: first,
      distance: firstDistance,
      cumulativeDistance: firstDistance,
      skyDirection: 262,
      skyDirectionDescription: 'West',
      cumulativeTravelTime: seconds(firstDistance),
      latitude: a.lat,
      longitude: a.lon,
      pathAttribute: { $type: tflType('PathAttribute') },
      descriptionHeading: 'Continue along',
      trackType: 'None',
    },
    {
      $type: tflType('InstructionStep'),
      description: describe('Turn left on to', second, distance - firstDistance),
      turnDirection: 'LEFT',
      streetName: second,
      distance: distance - firstDistance,
      cumulativeDistance: distance,
      skyDirection: 171,
      skyDirectionDescription: 'South',
      cumulativeTravelTime: seconds(distance),
      latitude: Number(((a.lat + b.lat) / 2).toFixed(6)),
      longitude: Number(((a.lon + b.lon) / 2).toFixed(6)),
      pathAttribute: { $type: tflType('PathAttribute') },
      descriptionHeading: 'Turn left',
      trackType: 'None',
    },
  ];
}

function disruption(createdMs: number): Record<string, unknown> {
  return {
    $type: tflType('Disruption'),
    category: 'RealTime',
    type: 'lineInfo',
    categoryDescription: 'RealTime',
    description: DISRUPTION_TEXT,
    created: new Date(createdMs).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    affectedRoutes: [],
    affectedStops: [],
    closureText: 'minorDelays',
  };
}

function buildLeg(template: LegTemplate, startMs: number, request: JourneyRequest): Record<string, unknown> {
  const from = endLocation(template.from, request);
  const to = endLocation(template.to, request);
  const endMs = startMs + template.minutes * 60_000;
  const line = template.line ? TFL_LINES[template.line] : undefined;
  const walking = template.mode === 'walking';
  const toName = locationName(to);
  const summary = walking
    ? `Walk to ${toName}`
    : `${line?.name ?? ''} ${template.mode === 'bus' ? 'bus' : 'line'} to ${toName}`;
  const detailed = walking
    ? `Walk to ${toName}`
    : `${line?.name ?? ''} ${template.mode === 'bus' ? 'bus' : 'line'} towards ${template.towards ?? ''}`;
  const a = locationCoords(from);
  const b = locationCoords(to);
  const departure = localDateTime(startMs, LONDON);
  const arrival = localDateTime(endMs, LONDON);
  return {
    $type: tflType('JourneyPlanner.Leg'),
    duration: template.minutes,
    instruction: {
      $type: tflType('Instruction'),
      summary: summary.trim(),
      detailed: detailed.trim(),
      steps: walking ? walkingSteps(template, from, to) : [],
    },
    obstacles: template.disrupted
      ? [
          {
            $type: tflType('JourneyPlanner.Obstacle'),
            type: 'STAIRS',
            incline: 'UP',
            stopId: 1000093,
            position: 'AFTER',
          },
        ]
      : [],
    departureTime: departure,
    arrivalTime: arrival,
    departurePoint: stopPointEntity(from, 'from'),
    arrivalPoint: stopPointEntity(to, 'to'),
    path: {
      $type: tflType('JourneyPlanner.Path'),
      lineString: `[[${a.lat}, ${a.lon}],[${b.lat}, ${b.lon}]]`,
      stopPoints: walking
        ? []
        : [from, to].map((loc) =>
            loc.kind === 'station'
              ? identifier(
                  loc.station.naptanId,
                  loc.station.commonName,
                  'StopPoint',
                  `/StopPoint/${loc.station.naptanId}`,
                )
              : identifier('', loc.commonName, 'StopPoint'),
          ),
      elevation: [],
    },
    routeOptions: [routeOption(line, template.towards ?? '')],
    mode: modeIdentifier(template.mode),
    disruptions: template.disrupted ? [disruption(startMs - 45 * 60_000)] : [],
    plannedWorks: template.plannedWorks
      ? [
          {
            $type: tflType('JourneyPlanner.PlannedWork'),
            id: '3491',
            description:
              'Bakerloo line: No service between Queen\u2019s Park and Harrow & Wealdstone on Sunday mornings.',
            createdDateTime: '2025-05-12T09:00:00',
            lastUpdateDateTime: '2025-05-12T09:00:00',
          },
        ]
      : [],
    ...(walking ? { distance: template.distance ?? 0 } : {}),
    isDisrupted: template.disrupted === true,
    hasFixedLocations: true,
    scheduledDepartureTime: departure,
    scheduledArrivalTime: arrival,
  };
}

function buildFare(fare: FareTemplate, tapMs: number): Record<string, unknown> {
  return {
    $type: tflType('JourneyPlanner.JourneyFare'),
    totalCost: fare.totalCost,
    fares: [
      {
        $type: tflType('JourneyPlanner.Fare'),
        lowZone: fare.lowZone,
        highZone: fare.highZone,
        cost: fare.totalCost,
        chargeProfileName: 'Peak',
        isHopperFare: fare.hopper,
        chargeLevel: 'Peak',
        peak: fare.totalCost,
        offPeak: fare.offPeak,
        taps: [
          {
            $type: tflType('JourneyPlanner.FareTap'),
            atcoCode: TFL_STATIONS[fare.tapAt].naptanId,
            tapDetails: {
              $type: tflType('JourneyPlanner.FareTapDetails'),
              modeType: fare.modeType,
              validationType: 'EntryOnly',
              hostDeviceType: fare.modeType === 'Bus' ? 'BusReader' : 'Gate',
              busRouteId: fare.modeType === 'Bus' ? '68' : '',
              nationalLocationCode: fare.modeType === 'Bus' ? 0 : 629,
              tapTimestamp: localDateTime(tapMs, LONDON),
            },
          },
        ],
      },
    ],
    caveats: [
      {
        $type: tflType('JourneyPlanner.FareCaveat'),
        text: 'Prices are for adult pay as you go (Oyster and contactless) journeys. Concessions may apply.',
        type: 'concessionGroup',
      },
    ],
  };
}

function journeyStart(template: JourneyTemplate, request: JourneyRequest): number {
  const minutes = template.legs.reduce((sum, leg) => sum + leg.minutes, 0);
  return request.timeIs === 'Arriving'
    ? request.dateTimeMs - (template.departInMinutes + minutes) * 60_000
    : request.dateTimeMs + template.departInMinutes * 60_000;
}

export function buildJourney(template: JourneyTemplate, request: JourneyRequest): Record<string, unknown> {
  const startMs = journeyStart(template, request);
  let t = startMs;
  const legs = template.legs.map((leg) => {
    const built = buildLeg(leg, t, request);
    t += leg.minutes * 60_000;
    return built;
  });
  const firstTransit = template.legs.findIndex((leg) => leg.mode !== 'walking');
  const tapMs =
    startMs + template.legs.slice(0, Math.max(0, firstTransit)).reduce((s, l) => s + l.minutes, 0) * 60_000;
  return {
    $type: tflType('JourneyPlanner.Journey'),
    startDateTime: localDateTime(startMs, LONDON),
    duration: Math.round((t - startMs) / 60_000),
    arrivalDateTime: localDateTime(t, LONDON),
    description: '',
    alternativeRoute: false,
    legs,
    ...(template.fare ? { fare: buildFare(template.fare, tapMs) } : {}),
  };
}

function lineStatus(createdMs: number): Record<string, unknown> {
  return {
    $type: tflType('Line'),
    id: 'jubilee',
    name: 'Jubilee',
    modeName: 'tube',
    disruptions: [],
    created: '2025-05-20T14:31:42.917Z',
    modified: '2025-05-20T14:31:42.917Z',
    lineStatuses: [
      {
        $type: tflType('LineStatus'),
        id: 0,
        lineId: 'jubilee',
        statusSeverity: 6,
        statusSeverityDescription: 'Minor Delays',
        reason: DISRUPTION_TEXT,
        created: '0001-01-01T00:00:00',
        validityPeriods: [
          {
            $type: tflType('ValidityPeriod'),
            fromDate: new Date(createdMs).toISOString().replace(/\.\d{3}Z$/, 'Z'),
            toDate: new Date(createdMs + 6 * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
            isNow: true,
          },
        ],
        disruption: {
          $type: tflType('Disruption'),
          category: 'RealTime',
          categoryDescription: 'RealTime',
          description: DISRUPTION_TEXT,
          affectedRoutes: [],
          affectedStops: [],
          closureText: 'minorDelays',
        },
      },
    ],
    routeSections: [],
    serviceTypes: [
      {
        $type: tflType('LineServiceTypeInfo'),
        name: 'Regular',
        uri: '/Line/Route?ids=Jubilee&serviceTypes=Regular',
      },
    ],
    crowding: { $type: tflType('Crowding') },
  };
}

export function journeyUri(fromText: string, toText: string, query: string): string {
  const path = `/journey/journeyresults/${encodeURIComponent(fromText)}/to/${encodeURIComponent(toText)}`;
  return `${path}${query ? `?${query}` : ''}`.toLowerCase();
}

function timeAdjustment(ms: number, timeIs: string, request: JourneyRequest): Record<string, unknown> {
  const p = zonedParts(ms, LONDON);
  const date = compactDate(ms, LONDON);
  const time = `${String(p.hour).padStart(2, '0')}${String(p.minute).padStart(2, '0')}`;
  const base = journeyUri(request.fromText, request.toText, '');
  return {
    $type: tflType('JourneyPlanner.TimeAdjustment'),
    date,
    time,
    timeIs,
    uri: `${base}?date=${date}&time=${time}&timeis=${timeIs.toLowerCase()}`,
  };
}

export function buildItineraryResult(
  request: JourneyRequest,
  templates: readonly JourneyTemplate[] = JOURNEY_TEMPLATES,
): Record<string, unknown> {
  const t = request.dateTimeMs;
  return {
    $type: tflType('JourneyPlanner.ItineraryResult'),
    journeys: templates.map((template) => buildJourney(template, request)),
    lines: [lineStatus(t - 45 * 60_000)],
    cycleHireDockingStationData: {
      $type: tflType('JourneyPlanner.JourneyPlannerCycleHireDockingStationData'),
      originNumberOfBikes: 0,
      destinationNumberOfBikes: 0,
      originNumberOfEmptySlots: 0,
      destinationNumberOfEmptySlots: 0,
      originId: '',
      destinationId: '',
    },
    stopMessages: [],
    recommendedMaxAgeMinutes: 1,
    searchCriteria: {
      $type: tflType('JourneyPlanner.SearchCriteria'),
      dateTime: localDateTime(t, LONDON),
      dateTimeType: request.timeIs,
      timeAdjustments: {
        $type: tflType('JourneyPlanner.TimeAdjustments'),
        earliest: timeAdjustment(t - 4 * 3600_000, 'Departing', request),
        earlier: timeAdjustment(t - 20 * 60_000, request.timeIs, request),
        later: timeAdjustment(t + 20 * 60_000, request.timeIs, request),
        latest: timeAdjustment(t + 8 * 3600_000, 'Departing', request),
      },
    },
    journeyVector: journeyVector(request),
  };
}

/** The `journeyVector` both result kinds end with: the request as TfL understood it. */
export function journeyVector(request: JourneyRequest): Record<string, unknown> {
  return {
    $type: tflType('JourneyPlanner.JourneyVector'),
    from: request.fromText,
    to: request.toText,
    via: '',
    uri: journeyUri(request.fromText, request.toText, request.queryWithoutKey),
  };
}
