export * from './captured-output.js';
export * from './managed-process.js';
export * from './readiness.js';
export * from './probes.js';
export * from './platform-services.js';
export * from './local-infrastructure.js';
export * from './free-port.js';
export * from './platform.js';
