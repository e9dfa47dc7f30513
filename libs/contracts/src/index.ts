export * from './error-codes.js';
export * from './request-headers.js';
export * from './principal.js';
export * from './auth/auth.subjects.js';
export * from './auth/token.contract.js';
export * from './events/event-stream.js';
export * from './charge-points/charge-point-events.js';
export * from './assets/index.js';
