import { writeSdkTypes } from './sdk-types.js';

await writeSdkTypes();
console.log('wrote libs/sdk/src/generated/openapi.ts');
