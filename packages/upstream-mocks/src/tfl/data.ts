// Static London data behind the TfL mock: stations (ICS codes, NaPTAN ids, coordinates) that journey ends,
// arrivals and stop searches resolve to.

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
