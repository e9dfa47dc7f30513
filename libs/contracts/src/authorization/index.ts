export * from './authorization.subjects.js';
export * from './id-token.contract.js';
export * from './authorization-decision.contract.js';
export * from './local-list.contract.js';
