export * from './access-tokens.js';
export * from './commands.js';
export * from './platform-client.js';
export * from './retrying-fetch.js';
export type { components, operations, paths } from './generated/openapi.js';
