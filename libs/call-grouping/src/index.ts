export * from './grouped-calls.js';
