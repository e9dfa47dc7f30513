export * from './env-reader.js';
export * from './common-service-config.js';
export * from './nats-settings.js';
export * from './trusted-proxies.js';
