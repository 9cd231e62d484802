export * from './kinds.js';
export * from './switchyard-error.js';
export * from './tables.js';
export * from './issues.js';
export * from './text.js';
export * from './payloads.js';
