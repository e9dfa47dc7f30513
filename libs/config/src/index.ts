export * from './env-reader.js';
export * from './common-service-config.js';
