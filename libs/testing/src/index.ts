export { findFreePort } from '@cpc/platform-launcher';
export * from './nats-test-server.js';
export * from './test-database.js';
export * from './platform-under-test.js';
export * from './openapi-response-validator.js';
export * from './api-test-client.js';
export * from './eventually.js';
export * from './service-test-rig.js';
