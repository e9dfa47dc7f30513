export * from './bounded-work.js';
