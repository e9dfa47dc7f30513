export * from './tracing-config.js';
export * from './tracing.js';
export * from './tracing-shutdown.js';
