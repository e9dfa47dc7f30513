import { readFile, writeFile } from 'node:fs/promises';
import openapiTS, { astToString } from 'openapi-typescript';

/** The committed OpenAPI document the SDK's types come from, relative to the repository root (the working directory). */
export const OPENAPI_DOCUMENT_PATH = 'docs/openapi.json';
/** Where the generated types are committed. */
export const SDK_TYPES_PATH = 'libs/sdk/src/generated/openapi.ts';

const HEADER =
  '// Generated from docs/openapi.json by `npm run openapi` (tools/sdk/sdk-types.ts, openapi-typescript). Do not edit.\n';

/** The TypeScript types of the SDK for an OpenAPI document, as the committed file holds them. */
export async function sdkTypesFor(documentJson: string): Promise<string> {
  // A field with a default is optional in a request (the server fills it in), so defaults do not make it required.
  const ast = await openapiTS(JSON.parse(documentJson) as Parameters<typeof openapiTS>[0], {
    defaultNonNullable: false,
  });
  return HEADER + astToString(ast);
}

/** Regenerates libs/sdk/src/generated/openapi.ts from docs/openapi.json. */
export async function writeSdkTypes(): Promise<void> {
  await writeFile(SDK_TYPES_PATH, await sdkTypesFor(await readFile(OPENAPI_DOCUMENT_PATH, 'utf8')));
}
