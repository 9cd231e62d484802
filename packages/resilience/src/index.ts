export * from './correlation.js';
export * from './secrets.js';
export * from './redaction.js';
export * from './classify.js';
export * from './policy.js';
export * from './limiter.js';
export * from './http.js';
