export * from './metrics.module.js';
export * from './metrics.controller.js';
