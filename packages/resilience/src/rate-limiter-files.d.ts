// The two files of rate-limiter-flexible that limiter.ts imports (CommonJS, each `module.exports` one class),
// typed as the package's own declarations type those classes.
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  import type { RateLimiterMemory } from 'rate-limiter-flexible';
  const memory: typeof RateLimiterMemory;
  export default memory;
}

declare module 'rate-limiter-flexible/lib/RateLimiterRes.js' {
  import type { RateLimiterRes } from 'rate-limiter-flexible';
  const res: typeof RateLimiterRes;
  export default res;
}
