export * from './ocpp-gateway.subjects.js';
export * from './ocpp-call.contract.js';
export * from './charge-point-presence.contract.js';
