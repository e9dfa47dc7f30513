export * from './pagination.js';
export * from './cursor.js';
export * from './keyset.js';
