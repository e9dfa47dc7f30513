import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { COMMITTED_OPENAPI_PATH, generateOpenApiDocument } from './generate-openapi-document.js';

/**
 * `npm run openapi`: writes the document the api-gateway serves to docs/openapi.json (run from the repository root),
 * formatted as the repository's Prettier settings want it.
 */
async function main(): Promise<void> {
  const document = await generateOpenApiDocument();
  // Prettier is a development tool; the production image never runs this script.
  const prettier = await import('prettier');
  const target = resolve(process.cwd(), COMMITTED_OPENAPI_PATH);
  const options = (await prettier.resolveConfig(target)) ?? {};
  const text = await prettier.format(JSON.stringify(document), { ...options, filepath: target });
  await writeFile(target, text);
  process.stdout.write(`wrote ${COMMITTED_OPENAPI_PATH}\n`);
}

await main();
