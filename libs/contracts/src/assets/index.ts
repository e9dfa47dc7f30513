export * from './assets.subjects.js';
export * from './asset-list.contract.js';
export * from './location.contract.js';
export * from './controller.contract.js';
export * from './plug.contract.js';
export * from './sensor.contract.js';
export * from './controller-events.contract.js';
export * from './controller-configuration.contract.js';
