export * from './authorization.subjects.js';
export * from './id-token.contract.js';
