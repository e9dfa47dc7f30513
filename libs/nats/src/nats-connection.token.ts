/** Injection token of the service's plain nats.js connection (see NatsConnectionModule). */
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
