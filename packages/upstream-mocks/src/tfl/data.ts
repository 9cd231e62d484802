// The London stations behind the TfL mock (fixtures/tfl/stations.json: ICS codes, NaPTAN ids, coordinates),
// which journey ends, arrivals and stop searches resolve to.
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
}

/** By key: `kingsCross`, `waterloo`, `bank`, `mileEnd`, `euston`, `oxfordCircus`, … */
export const TFL_STATIONS = readFixture<Readonly<Record<string, TflStation>>>('tfl/stations.json');
