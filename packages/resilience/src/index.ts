export * from './context.js';
export * from './classify.js';
export * from './policy.js';
export * from './limiter.js';
export * from './http.js';
