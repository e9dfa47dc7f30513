import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type PlatformUnderTest, startPlatformUnderTest } from '@cpc/testing';

/**
 * docs/openapi.json is generated without NATS (Nest's preview mode, `npm run openapi`); the unit spec beside the
 * generator keeps it fresh. This checks that the document the running api-gateway serves is the same one.
 */
describe('the committed OpenAPI document', () => {
  let platform: PlatformUnderTest;

  beforeAll(async () => {
    platform = await startPlatformUnderTest({ services: ['api-gateway'] });
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('is what the running api-gateway serves', async () => {
    const served: unknown = await (await fetch(`${platform.apiUrl}/api/v1/openapi.json`)).json();
    const committed: unknown = JSON.parse(await readFile(resolve('docs/openapi.json'), 'utf8'));
    expect(served).toEqual(committed);
  });
});
