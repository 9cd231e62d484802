// The London stations behind the TfL mock, which journey ends, arrivals and stop searches resolve to: the
// `StopPoint`s of fixtures/tfl/stations.json as TfL lists them around a point (ICS code, NaPTAN id, stop type,
// coordinates, and the lines of the stops with recorded arrivals).
import { readFixture } from '../recorded.js';

export interface TflStation {
  readonly icsCode: string;
  readonly naptanId: string;
  readonly commonName: string;
  readonly lat: number;
  readonly lon: number;
  readonly modes: readonly string[];
  /** Bus stops carry a stop letter. */
  readonly stopLetter?: string;
  readonly stopType: string;
  readonly lines: readonly unknown[];
}

/** By key: `kingsCross`, `waterloo`, `bank`, `mileEnd`, `euston`, `oxfordCircus`, … */
export const TFL_STATIONS = readFixture<Readonly<Record<string, TflStation>>>('tfl/stations.json');
