export * from './nats-microservice-options.js';
export * from './request-context-rpc.interceptor.js';
export * from './service-client.js';
export * from './nats-rpc-client.module.js';
export * from './nats-connection.token.js';
export * from './nats-connection.module.js';
export * from './jetstream-event-bus.js';
