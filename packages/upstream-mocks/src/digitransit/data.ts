// Static Helsinki-region data behind the Digitransit mock: stops, stations and routes of the HSL feed.

export type TransitModeName = 'BUS' | 'TRAM' | 'SUBWAY' | 'RAIL' | 'FERRY';

export interface HslRoute {
  readonly gtfsId: string;
  readonly shortName: string;
  readonly longName: string;
  readonly mode: TransitModeName;
  /** Raw GTFS route_type (HSL uses extended types for some). */
  readonly type: number;
  readonly color: string | null;
  /** Headsigns by direction id ("0", "1"). */
  readonly headsigns: readonly [string, string];
}

export interface HslStop {
  readonly gtfsId: string;
  readonly name: string;
  readonly code: string;
  readonly platformCode: string | null;
  readonly lat: number;
  readonly lon: number;
  readonly vehicleMode: TransitModeName;
  readonly zoneId: string;
  readonly desc: string;
  /** Routes serving the stop, and the direction they serve it in. */
  readonly routes: readonly { readonly route: string; readonly directionId: '0' | '1' }[];
  readonly parentStation?: string;
}

export interface HslStation {
  readonly gtfsId: string;
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
  readonly vehicleMode: TransitModeName;
  readonly stops: readonly string[];
}

export const HSL_AGENCY = {
  gtfsId: 'HSL:HSL',
  name: 'Helsingin seudun liikenne',
  url: 'https://www.hsl.fi/',
  timezone: 'Europe/Helsinki',
  lang: 'fi',
  phone: '09 4766 4444',
} as const;

export const HSL_ROUTES: readonly HslRoute[] = [
  {
    gtfsId: 'HSL:1055',
    shortName: '55',
    longName: 'Rautatientori-Koskela',
    mode: 'BUS',
    type: 3,
    color: null,
    headsigns: ['Koskela', 'Rautatientori'],
  },
  {
    gtfsId: 'HSL:1018',
    shortName: '18',
    longName: 'Eira-Munkkivuori',
    mode: 'BUS',
    type: 3,
    color: null,
    headsigns: ['Munkkivuori', 'Eira'],
  },
  {
    gtfsId: 'HSL:1009',
    shortName: '9',
    longName: 'Pasila-Jätkäsaari',
    mode: 'TRAM',
    type: 0,
    color: null,
    headsigns: ['Pasila', 'Jätkäsaari'],
  },
  {
    gtfsId: 'HSL:1004',
    shortName: '4',
    longName: 'Munkkiniemi-Katajanokka',
    mode: 'TRAM',
    type: 0,
    color: null,
    headsigns: ['Katajanokka', 'Munkkiniemi'],
  },
  {
    gtfsId: 'HSL:31M1',
    shortName: 'M1',
    longName: 'Vuosaari-Kivenlahti',
    mode: 'SUBWAY',
    type: 1,
    color: 'FF6319',
    headsigns: ['Kivenlahti', 'Vuosaari'],
  },
  {
    gtfsId: 'HSL:3001I',
    shortName: 'I',
    longName: 'Helsinki-Lentoasema-Tikkurila-Helsinki',
    mode: 'RAIL',
    type: 109,
    color: null,
    headsigns: ['Lentoasema', 'Helsinki'],
  },
  {
    gtfsId: 'HSL:2147',
    shortName: '147',
    longName: 'Kamppi-Latokaski',
    mode: 'BUS',
    type: 701,
    color: null,
    headsigns: ['Latokaski', 'Kamppi'],
  },
];

export const HSL_STOPS: readonly HslStop[] = [
  {
    gtfsId: 'HSL:1040129',
    name: 'Arkadian puisto',
    code: 'H1232',
    platformCode: null,
    lat: 60.17192,
    lon: 24.93194,
    vehicleMode: 'BUS',
    zoneId: 'A',
    desc: 'Arkadiankatu',
    routes: [
      { route: 'HSL:1055', directionId: '0' },
      { route: 'HSL:1018', directionId: '0' },
    ],
  },
  {
    gtfsId: 'HSL:1020453',
    name: 'Rautatientori',
    code: 'H2004',
    platformCode: null,
    lat: 60.17088,
    lon: 24.94315,
    vehicleMode: 'BUS',
    zoneId: 'A',
    desc: 'Rautatientori',
    routes: [
      { route: 'HSL:1055', directionId: '1' },
      { route: 'HSL:1018', directionId: '1' },
    ],
  },
  {
    gtfsId: 'HSL:1040602',
    name: 'Kamppi',
    code: 'H0082',
    platformCode: '2',
    lat: 60.16891,
    lon: 24.93218,
    vehicleMode: 'SUBWAY',
    zoneId: 'A',
    desc: 'Kampin metroasema',
    routes: [{ route: 'HSL:31M1', directionId: '0' }],
    parentStation: 'HSL:1000003',
  },
  {
    gtfsId: 'HSL:1020502',
    name: 'Helsinki',
    code: 'H0301',
    platformCode: '9',
    lat: 60.17167,
    lon: 24.94141,
    vehicleMode: 'RAIL',
    zoneId: 'A',
    desc: 'Helsingin päärautatieasema',
    routes: [{ route: 'HSL:3001I', directionId: '0' }],
    parentStation: 'HSL:1000202',
  },
  {
    gtfsId: 'HSL:1174502',
    name: 'Pasila',
    code: 'H0302',
    platformCode: '5',
    lat: 60.19881,
    lon: 24.93323,
    vehicleMode: 'RAIL',
    zoneId: 'A',
    desc: 'Pasilan asema',
    routes: [{ route: 'HSL:3001I', directionId: '0' }],
  },
  {
    gtfsId: 'HSL:1130446',
    name: 'Ooppera',
    code: 'H0602',
    platformCode: null,
    lat: 60.18105,
    lon: 24.92909,
    vehicleMode: 'TRAM',
    zoneId: 'A',
    desc: 'Mannerheimintie',
    routes: [
      { route: 'HSL:1009', directionId: '0' },
      { route: 'HSL:1004', directionId: '1' },
    ],
  },
  {
    gtfsId: 'HSL:1174403',
    name: 'Pasilan asema',
    code: 'H0606',
    platformCode: null,
    lat: 60.19923,
    lon: 24.93381,
    vehicleMode: 'TRAM',
    zoneId: 'A',
    desc: 'Ratapihantie',
    routes: [{ route: 'HSL:1009', directionId: '0' }],
  },
  {
    gtfsId: 'HSL:2431252',
    name: 'Latokaski',
    code: 'E4314',
    platformCode: null,
    lat: 60.17662,
    lon: 24.6562,
    vehicleMode: 'BUS',
    zoneId: 'B',
    desc: 'Latokaskentie',
    routes: [{ route: 'HSL:2147', directionId: '0' }],
  },
];

export const HSL_STATIONS: readonly HslStation[] = [
  {
    gtfsId: 'HSL:1000003',
    name: 'Kamppi',
    lat: 60.16899,
    lon: 24.93129,
    vehicleMode: 'SUBWAY',
    stops: ['HSL:1040602'],
  },
  {
    gtfsId: 'HSL:1000202',
    name: 'Helsinki',
    lat: 60.17131,
    lon: 24.94149,
    vehicleMode: 'RAIL',
    stops: ['HSL:1020502'],
  },
];

/** Coordinates each router covers; planConnection answers OUTSIDE_BOUNDS beyond them. */
export const ROUTER_BOUNDS: Readonly<
  Record<string, { minLat: number; maxLat: number; minLon: number; maxLon: number }>
> = {
  hsl: { minLat: 59.9, maxLat: 60.8, minLon: 24.0, maxLon: 25.9 },
  waltti: { minLat: 59.7, maxLat: 70.1, minLon: 19.0, maxLon: 31.6 },
  finland: { minLat: 59.7, maxLat: 70.1, minLon: 19.0, maxLon: 31.6 },
};

export const ROUTERS = Object.keys(ROUTER_BOUNDS);

export function findStop(gtfsId: string): HslStop | undefined {
  return HSL_STOPS.find((stop) => stop.gtfsId === gtfsId);
}

export function findRoute(gtfsId: string): HslRoute {
  const route = HSL_ROUTES.find((r) => r.gtfsId === gtfsId);
  if (!route) throw new Error(`unknown fixture route ${gtfsId}`);
  return route;
}

export function findStation(gtfsId: string): HslStation | undefined {
  return HSL_STATIONS.find((station) => station.gtfsId === gtfsId);
}
