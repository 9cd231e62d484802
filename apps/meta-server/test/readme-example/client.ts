import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { GET_DEPARTURES_ERROR_TABLE, HslErrorPayloadSchema } from '@switchyard/contracts/errors';
import {
  GetDeparturesOutputSchema,
  type Departure,
  type GetDeparturesInput,
} from '@switchyard/contracts/transit';

/** The next departures from a Helsinki stop, typed and checked against the get_departures contract. */
export async function nextDepartures(serverUrl: string, stopId: string): Promise<Departure[]> {
  // 'auto': the 2026-07-28 revision when the server offers it (Switchyard does), else the 2025 handshake.
  const client = new Client({ name: 'my-app', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl)));
  try {
    const args: GetDeparturesInput = { stop: { type: 'id', value: stopId }, windowMinutes: 30, limit: 5 };
    const result = await client.callTool({ name: 'get_departures', arguments: args });
    if (result.isError) {
      const { error } = HslErrorPayloadSchema.parse(result.structuredContent);
      const retryable = GET_DEPARTURES_ERROR_TABLE.codes[error.code].retryable;
      throw new Error(`${error.code}: ${error.message}${retryable ? ' (worth retrying)' : ''}`);
    }
    return GetDeparturesOutputSchema.parse(result.structuredContent).departures;
  } finally {
    await client.close();
  }
}
