// The light part of resilience: what every call needs (correlation ids, secret redaction) without the
// HTTP, retry and limiter libraries. Servers import this at start; upstream clients import the root.
export * from './correlation.js';
export * from './secrets.js';
export * from './redaction.js';
