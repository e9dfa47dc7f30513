import {
  type ApiResponse,
  ApiTestClient,
  eventually,
  type PlatformUnderTest,
  startPlatformUnderTest,
} from '@cpc/testing';
import { jest } from '@jest/globals';

// Each test runs admin CLI commands, each a process of its own.
jest.setTimeout(180_000);

const PASSWORD = 'correct-horse-9';
const NEW_PASSWORD = 'battery-staple-10';
const LOCATIONS = '/api/v1/assets/locations';

interface TokenPair {
  access_token: string;
  refresh_token: string;
}

/**
 * Credential changes take effect, through HTTP against the running services (real NATS and PostgreSQL): a change
 * revokes the account's refresh tokens at once, and api-gateway refuses its access tokens from the announcement (or
 * its next poll) on; with auth-service out of reach for longer than REVOCATION_MAX_STALENESS_SECONDS, api-gateway
 * refuses every token (503) instead of trusting what may be revoked.
 */
describe('credential changes revoke tokens', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let apiKey: { public_key: string; private_key: string };

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'assets-service', 'api-gateway'],
      env: { REVOCATION_POLL_INTERVAL_SECONDS: '1', REVOCATION_MAX_STALENESS_SECONDS: '3' },
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    await platform.admin(['tenant:create', '--slug', 'acme']);
    for (const role of ['reader', 'auditor']) {
      await platform.admin(['role:create', '--tenant', 'acme', '--name', role, '--permissions', 'asset']);
    }
    for (const name of ['disabled', 'password', 'moved', 'regranted']) {
      await platform.admin([
        ...['user:create', '--tenant', 'acme', '--email', `${name}@acme.test`],
        ...['--password', PASSWORD, '--role', name === 'regranted' ? 'auditor' : 'reader'],
      ]);
    }
    apiKey = await platform.admin(['apikey:create', '--tenant', 'acme', '--role', 'reader']);
  }, 180_000);

  afterAll(() => platform?.stop());

  const logIn = async (username: string, password = PASSWORD, context?: string): Promise<TokenPair> => {
    const response = await api.call<TokenPair>('POST', '/api/v1/oauth/token', {
      body: { username, password, tenant: 'acme', ...(context ? { context } : {}) },
    });
    expect(response.status).toBe(200);
    return response.body;
  };
  const refresh = (pair: TokenPair) =>
    api.call('POST', '/api/v1/oauth/token', {
      body: { grant_type: 'refresh_token', refresh_token: pair.refresh_token },
    });
  const listLocations = (pair: TokenPair) => api.call('GET', LOCATIONS, { token: pair.access_token });
  /** The access token is refused as revoked once api-gateway learnt the revocation. */
  const expectRevoked = async (pair: TokenPair) => {
    const refused = await eventually(
      () => listLocations(pair),
      (response: ApiResponse) => response.status !== 200,
    );
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'access token revoked' });
  };
  const expectRefreshRefused = async (pair: TokenPair) => {
    const response = await refresh(pair);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'invalid credentials' });
  };

  it('refuses a disabled user’s tokens, and its old refresh token stays refused after enable', async () => {
    const pair = await logIn('disabled@acme.test');
    expect((await listLocations(pair)).status).toBe(200);

    await platform.admin(['user:disable', '--tenant', 'acme', '--email', 'disabled@acme.test']);
    await expectRevoked(pair);
    await expectRefreshRefused(pair);

    await platform.admin(['user:enable', '--tenant', 'acme', '--email', 'disabled@acme.test']);
    await expectRefreshRefused(pair);
    expect((await listLocations(pair)).status).toBe(401);
    // A token issued after the revocation works at once, even within the second of the revocation.
    expect((await listLocations(await logIn('disabled@acme.test'))).status).toBe(200);
  });

  it('refuses the old refresh and access tokens after user:set-password', async () => {
    const pair = await logIn('password@acme.test');
    await platform.admin([
      ...['user:set-password', '--tenant', 'acme', '--email', 'password@acme.test'],
      ...['--password', NEW_PASSWORD],
    ]);
    await expectRefreshRefused(pair);
    await expectRevoked(pair);
    expect((await listLocations(await logIn('password@acme.test', NEW_PASSWORD))).status).toBe(200);
  });

  it('refuses the tokens issued under a role the user left, or a role whose permissions changed', async () => {
    const moved = await logIn('moved@acme.test');
    const regranted = await logIn('regranted@acme.test');
    await platform.admin([
      'user:set-role',
      '--tenant',
      'acme',
      '--email',
      'moved@acme.test',
      '--role',
      'auditor',
    ]);
    await expectRefreshRefused(moved);
    await expectRevoked(moved);

    // Holders of auditor now: moved (with a new token) and regranted.
    const movedAgain = await logIn('moved@acme.test');
    await platform.admin([
      ...['role:set-permissions', '--tenant', 'acme', '--name', 'auditor'],
      ...['--permissions', 'asset,control:commands'],
    ]);
    for (const pair of [regranted, movedAgain]) {
      await expectRefreshRefused(pair);
      await expectRevoked(pair);
    }
  });

  it('refuses a revoked API key’s access and refresh tokens', async () => {
    const pair = await logIn(apiKey.public_key, apiKey.private_key, 'apikey');
    expect((await listLocations(pair)).status).toBe(200);
    await platform.admin(['apikey:revoke', '--tenant', 'acme', '--public-key', apiKey.public_key]);
    await expectRevoked(pair);
    await expectRefreshRefused(pair);
  });

  it('refuses every token with 503 while auth-service is out of reach past the bound, and recovers', async () => {
    const pair = await logIn('password@acme.test', NEW_PASSWORD);
    expect((await listLocations(pair)).status).toBe(200);

    await platform.service('auth-service').stop();
    const refused = await eventually(
      () => listLocations(pair),
      (response: ApiResponse) => response.status !== 200,
    );
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ error: expect.stringContaining('revocations cannot be checked') });

    await platform.service('auth-service').restart();
    await eventually(
      () => listLocations(pair),
      (response: ApiResponse) => response.status === 200,
    );
  });
});
