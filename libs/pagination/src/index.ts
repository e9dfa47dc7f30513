export * from './pagination.js';
