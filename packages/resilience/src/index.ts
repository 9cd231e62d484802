export * from './correlation.js';
export * from './secrets.js';
