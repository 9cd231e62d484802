export * from './domain-module.js';
export * from './logger.js';
export * from './principal.js';
export * from './progress.js';
export * from './register-tool.js';
export * from './data-dir.js';
export * from './sqlite.js';
export * from './compose.js';
