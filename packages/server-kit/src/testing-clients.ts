import { Client, type ClientCapabilities } from '@modelcontextprotocol/client';

/** The protocol revision 2026-07-28 ("modern": no handshake) or a 2025 one ("legacy": initialize). */
export type ProtocolEra = 'modern' | 'legacy';

export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * A v2 SDK client that speaks only `era`: pinned to 2026-07-28, or the 2025 handshake; declaring
 * `capabilities` (sampling, elicitation, roots: register their handlers on the client) or none.
 */
export function clientFor(
  era: ProtocolEra,
  name = 'switchyard-test-client',
  capabilities: ClientCapabilities = {},
): Client {
  return new Client(
    { name, version: '0.0.0' },
    era === 'modern'
      ? { capabilities, versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } }
      : { capabilities },
  );
}
