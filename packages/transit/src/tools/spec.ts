import { specsFor } from '@switchyard/server-kit';
import type { TransitConfig } from '../config.js';
import { PROVIDER_KEYS, type Provider } from '../providers.js';
import type { TransitState } from '../services.js';

/** Builds a transit tool spec: schemas inferred, `call.state` typed as the opened transit domain. */
export const { tool, prompt } = specsFor<TransitState, TransitConfig>();

/** Offered only when the `tfl` provider is configured (the TfL tools' `when`). */
export const tflConfigured = (config: TransitConfig): boolean => config.tfl !== undefined;

/** Offered only when the `hsl` provider is configured (the HSL tools' and the commute prompt's `when`). */
export const hslConfigured = (config: TransitConfig): boolean => config.hsl !== undefined;

/** What a provider's tools need when a configuration leaves them out: a call to one answers this. */
const providerNeeds = (provider: Provider, portal: string): string =>
  `${PROVIDER_KEYS[provider]} (a free key from ${portal}), and "${provider}" in TRANSIT_PROVIDERS when that is set`;

/** `when` and `needs` of the TfL tools. */
export const offeredWithTfl = {
  when: tflConfigured,
  needs: providerNeeds('tfl', 'the TfL API portal, https://api-portal.tfl.gov.uk'),
};

/** `when` and `needs` of the HSL tools. */
export const offeredWithHsl = {
  when: hslConfigured,
  needs: providerNeeds('hsl', 'the Digitransit portal, https://portal-api.digitransit.fi'),
};
