// Static London data behind the TfL mock: stations (ICS codes, NaPTAN ids, coordinates),
// lines, and the option lists of the disambiguation scenarios.

export interface TflStation {
  readonly icsCode: string;
  readonly naptanId: string;
  readonly commonName: string;
  readonly lat: number;
  readonly lon: number;
  readonly modes: readonly string[];
  /** Bus stops carry a stop letter. */
  readonly stopLetter?: string;
}

export const TFL_STATIONS = {
  kingsCross: {
    icsCode: '1000129',
    naptanId: '940GZZLUKSX',
    commonName: "King's Cross St. Pancras Underground Station",
    lat: 51.530312,
    lon: -0.123853,
    modes: ['tube'],
  },
  waterloo: {
    icsCode: '1000254',
    naptanId: '940GZZLUWLO',
    commonName: 'Waterloo Underground Station',
    lat: 51.503299,
    lon: -0.11478,
    modes: ['tube'],
  },
  bank: {
    icsCode: '1000013',
    naptanId: '940GZZLUBNK',
    commonName: 'Bank Underground Station',
    lat: 51.513356,
    lon: -0.088899,
    modes: ['tube'],
  },
  mileEnd: {
    icsCode: '1000146',
    naptanId: '940GZZLUMED',
    commonName: 'Mile End Underground Station',
    lat: 51.525122,
    lon: -0.033253,
    modes: ['tube'],
  },
  euston: {
    icsCode: '1000077',
    naptanId: '940GZZLUEUS',
    commonName: 'Euston Underground Station',
    lat: 51.528055,
    lon: -0.133161,
    modes: ['tube'],
  },
  greenPark: {
    icsCode: '1000093',
    naptanId: '940GZZLUGPK',
    commonName: 'Green Park Underground Station',
    lat: 51.506947,
    lon: -0.142787,
    modes: ['tube'],
  },
  oxfordCircus: {
    icsCode: '1000173',
    naptanId: '940GZZLUOXC',
    commonName: 'Oxford Circus Underground Station',
    lat: 51.515224,
    lon: -0.141903,
    modes: ['tube'],
  },
  londonBridge: {
    icsCode: '1000135',
    naptanId: '940GZZLULNB',
    commonName: 'London Bridge Underground Station',
    lat: 51.505721,
    lon: -0.088873,
    modes: ['tube'],
  },
  stPancrasRail: {
    icsCode: '1001298',
    naptanId: '910GSTPXBOX',
    commonName: 'St Pancras International Rail Station',
    lat: 51.531969,
    lon: -0.126867,
    modes: ['national-rail'],
  },
  blackfriarsRail: {
    icsCode: '1000023',
    naptanId: '910GBLFR',
    commonName: 'London Blackfriars Rail Station',
    lat: 51.511732,
    lon: -0.103497,
    modes: ['national-rail'],
  },
  eustonBusStop: {
    icsCode: '1000078',
    naptanId: '490000078P',
    commonName: 'Euston Square Station',
    lat: 51.525604,
    lon: -0.135829,
    modes: ['bus'],
    stopLetter: 'P',
  },
  waterlooBusStop: {
    icsCode: '1000254',
    naptanId: '490000254W',
    commonName: 'Waterloo Station / Waterloo Road',
    lat: 51.502719,
    lon: -0.112074,
    modes: ['bus'],
    stopLetter: 'W',
  },
} as const satisfies Record<string, TflStation>;

export type TflStationKey = keyof typeof TFL_STATIONS;

export interface TflLine {
  readonly id: string;
  readonly name: string;
  readonly mode: string;
}

export const TFL_LINES = {
  victoria: { id: 'victoria', name: 'Victoria', mode: 'tube' },
  jubilee: { id: 'jubilee', name: 'Jubilee', mode: 'tube' },
  northern: { id: 'northern', name: 'Northern', mode: 'tube' },
  bakerloo: { id: 'bakerloo', name: 'Bakerloo', mode: 'tube' },
  bus68: { id: '68', name: '68', mode: 'bus' },
  thameslink: { id: 'thameslink', name: 'Thameslink', mode: 'national-rail' },
} as const satisfies Record<string, TflLine>;

export type TflLineKey = keyof typeof TFL_LINES;

/** One disambiguation candidate; `parameterValue` is absent on some real options. */
export interface TflDisambiguationCandidate {
  readonly parameterValue?: string;
  readonly commonName: string;
  readonly placeType: 'StopPoint' | 'PointOfInterest' | 'Street' | 'Locality';
  readonly lat: number;
  readonly lon: number;
  readonly matchQuality: number;
  readonly naptanId?: string;
  readonly icsCode?: string;
  readonly modes?: readonly string[];
}

/** "Victoria": 7 options, unsorted by matchQuality, a point of interest outranking the stations, one without parameterValue. */
export const VICTORIA_OPTIONS: readonly TflDisambiguationCandidate[] = [
  {
    parameterValue: '1000248',
    commonName: 'Victoria',
    placeType: 'StopPoint',
    naptanId: 'HUBVIC',
    icsCode: '1000248',
    modes: ['tube', 'bus', 'national-rail', 'coach'],
    lat: 51.495812,
    lon: -0.143826,
    matchQuality: 975,
  },
  {
    parameterValue: 'lonlat:"-0.17218,51.49664"',
    commonName: 'Victoria and Albert Museum',
    placeType: 'PointOfInterest',
    lat: 51.49664,
    lon: -0.17218,
    matchQuality: 1000,
  },
  {
    parameterValue: '1001246',
    commonName: 'Royal Victoria',
    placeType: 'StopPoint',
    naptanId: '940GZZDLRVC',
    icsCode: '1001246',
    modes: ['dlr'],
    lat: 51.509074,
    lon: 0.018099,
    matchQuality: 880,
  },
  {
    parameterValue: '1001317',
    commonName: 'Victoria Coach Station',
    placeType: 'StopPoint',
    naptanId: '490000248G',
    icsCode: '1001317',
    modes: ['coach', 'bus'],
    lat: 51.49271,
    lon: -0.149098,
    matchQuality: 922,
  },
  {
    parameterValue: 'lonlat:"-0.04131,51.53622"',
    commonName: 'Victoria Park',
    placeType: 'PointOfInterest',
    lat: 51.53622,
    lon: -0.04131,
    matchQuality: 950,
  },
  {
    commonName: 'Victoria Embankment, City of Westminster',
    placeType: 'Street',
    lat: 51.50796,
    lon: -0.12194,
    matchQuality: 900,
  },
  {
    parameterValue: 'streetID:"8512",lonlat:"0.17896,51.57623"',
    commonName: 'Victoria Road, Romford',
    placeType: 'Street',
    lat: 51.57623,
    lon: 0.17896,
    matchQuality: 640,
  },
];

/** "Highgate": 6 options, unsorted by matchQuality. */
export const HIGHGATE_OPTIONS: readonly TflDisambiguationCandidate[] = [
  {
    parameterValue: 'lonlat:"-0.14658,51.56762"',
    commonName: 'Highgate Cemetery',
    placeType: 'PointOfInterest',
    lat: 51.56762,
    lon: -0.14658,
    matchQuality: 905,
  },
  {
    parameterValue: '1000109',
    commonName: 'Highgate (London), Highgate',
    placeType: 'StopPoint',
    naptanId: '940GZZLUHGT',
    icsCode: '1000109',
    modes: ['tube', 'bus'],
    lat: 51.577532,
    lon: -0.145857,
    matchQuality: 1000,
  },
  {
    parameterValue: 'locality:"E0034135",lonlat:"-0.14875,51.57135"',
    commonName: 'Highgate Village',
    placeType: 'Locality',
    lat: 51.57135,
    lon: -0.14875,
    matchQuality: 940,
  },
  {
    parameterValue: 'streetID:"22017",lonlat:"-0.14319,51.55581"',
    commonName: 'Highgate Road, Camden Town',
    placeType: 'Street',
    lat: 51.55581,
    lon: -0.14319,
    matchQuality: 870,
  },
  {
    parameterValue: 'lonlat:"-0.14012,51.58133"',
    commonName: 'Highgate Wood',
    placeType: 'PointOfInterest',
    lat: 51.58133,
    lon: -0.14012,
    matchQuality: 890,
  },
  {
    parameterValue: 'streetID:"22019",lonlat:"-0.13868,51.56934"',
    commonName: 'Highgate Hill, Archway',
    placeType: 'Street',
    lat: 51.56934,
    lon: -0.13868,
    matchQuality: 780,
  },
];
