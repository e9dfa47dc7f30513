export * from './bootstrap-service.js';
export * from './run-service-main.js';
export * from './repeat-in-background.js';
