export * from './request-context.js';
export * from './create-logger.js';
export * from './pino-nest-logger.js';
export * from './query-error.js';
