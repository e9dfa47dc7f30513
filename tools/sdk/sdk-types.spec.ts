import { readFile } from 'node:fs/promises';
import { OPENAPI_DOCUMENT_PATH, SDK_TYPES_PATH, sdkTypesFor } from './sdk-types.js';

describe('the SDK types', () => {
  // The SDK and the end-to-end tests that use it compile against these types, so a change to the API that breaks
  // generated clients fails the typecheck; this test makes sure they are the committed document's.
  it('are generated from the committed OpenAPI document (npm run openapi regenerates both)', async () => {
    const [document, committed] = await Promise.all([
      readFile(OPENAPI_DOCUMENT_PATH, 'utf8'),
      readFile(SDK_TYPES_PATH, 'utf8'),
    ]);
    expect(committed === (await sdkTypesFor(document))).toBe(true);
  }, 60000);
});
