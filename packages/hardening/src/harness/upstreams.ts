import {
  startDigitransitMock,
  startTflMock,
  type DigitransitMock,
  type TflMock,
} from '@switchyard/upstream-mocks';
import { GITHUB_TOKEN_ENV, SENTINELS } from '../sentinels.js';
import { startGithubMock, type GithubMock } from './github-mock.js';

export interface Upstreams {
  tfl: TflMock;
  digitransit: DigitransitMock;
  github: GithubMock;
  /** Back to the default scenarios on every mock (recorded requests cleared). */
  reset(): void;
  close(): Promise<void>;
}

export async function startUpstreams(): Promise<Upstreams> {
  const [tfl, digitransit, github] = await Promise.all([
    startTflMock({ apiKeys: [SENTINELS.tflKey] }),
    startDigitransitMock({ apiKeys: [SENTINELS.digitransitKey] }),
    startGithubMock(),
  ]);
  return {
    tfl,
    digitransit,
    github,
    reset() {
      tfl.reset();
      digitransit.reset();
    },
    async close() {
      await Promise.all([tfl.close(), digitransit.close(), github.close()]);
    },
  };
}

export interface ServerEnvOptions {
  dataDir: string;
  /** Per-attempt upstream timeouts (short, so that a hang costs little). */
  upstreamTimeoutMs?: number;
  /** SWITCHYARD_TOKEN for HTTP; default the sentinel token. */
  token?: string | null;
  extra?: Record<string, string>;
}

/** The environment of a combined server wired to the mocks, with every sentinel secret configured. */
export function serverEnv(upstreams: Upstreams, options: ServerEnvOptions): Record<string, string> {
  const timeout = String(options.upstreamTimeoutMs ?? 1500);
  const token = options.token === undefined ? SENTINELS.switchyardToken : options.token;
  return {
    SWITCHYARD_DATA_DIR: options.dataDir,
    TFL_API_KEY: SENTINELS.tflKey,
    DIGITRANSIT_SUBSCRIPTION_KEY: SENTINELS.digitransitKey,
    TFL_API_BASE_URL: upstreams.tfl.url,
    DIGITRANSIT_ROUTING_URL: upstreams.digitransit.routingUrl,
    DIGITRANSIT_GEOCODING_URL: upstreams.digitransit.geocodingUrl,
    TFL_TIMEOUT_MS: timeout,
    DIGITRANSIT_TIMEOUT_MS: timeout,
    PLAN_JOURNEY_TPS: '10000',
    LONDON_ARRIVALS_TPS: '10000',
    LINE_STATUS_TPS: '10000',
    LONDON_STOPS_TPS: '10000',
    // DIGITRANSIT_CALLS_PER_SECOND stays `auto`: no local limit for the loopback stand-in, as for any OTP
    // that is not Digitransit's own gateway.
    [GITHUB_TOKEN_ENV]: SENTINELS.githubToken,
    // The operator's launch policy: runs may use this variable as their PR token, sent only to the stand-in.
    LAUNCH_PR_TOKEN_ENV: GITHUB_TOKEN_ENV,
    LAUNCH_GITHUB_API_URLS: upstreams.github.url,
    ...(token === null ? {} : { SWITCHYARD_TOKEN: token }),
    ...options.extra,
  };
}
