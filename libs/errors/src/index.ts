export * from './domain-error.js';
export * from './http-status-by-error-code.js';
export * from './domain-error-rpc.filter.js';
export * from './describe-error.js';
