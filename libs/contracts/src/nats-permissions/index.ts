export * from './nats-users.js';
export * from './nats-server-authorization.js';
