import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { LOCAL_PLATFORM_NATS_PASSWORDS, withLocalPlatformNatsLogin } from './local-platform-nats-login.js';

describe('the admin CLI beside npm start', () => {
  const root = mkdtempSync(join(tmpdir(), 'cpc-admin-nats-'));
  mkdirSync(dirname(join(root, LOCAL_PLATFORM_NATS_PASSWORDS)), { recursive: true });
  writeFileSync(
    join(root, LOCAL_PLATFORM_NATS_PASSWORDS),
    JSON.stringify({ 'auth-service': 'auth-service-password-123', 'api-gateway': 'other-password-4567' }),
  );

  it("logs in as auth-service with npm start's password when no login is configured", () => {
    expect(withLocalPlatformNatsLogin({}, root)).toMatchObject({
      NATS_USER: 'auth-service',
      NATS_PASSWORD: 'auth-service-password-123',
    });
    expect(withLocalPlatformNatsLogin({ NATS_URL: 'nats://127.0.0.1:4222' }, root).NATS_USER).toBe(
      'auth-service',
    );
  });

  it('keeps a configured login, a remote NATS and a folder without npm start as they are', () => {
    expect(withLocalPlatformNatsLogin({ NATS_USER: 'me', NATS_PASSWORD: 'mine' }, root).NATS_USER).toBe('me');
    expect(
      withLocalPlatformNatsLogin({ NATS_URL: 'nats://nats.internal:4222' }, root).NATS_USER,
    ).toBeUndefined();
    expect(withLocalPlatformNatsLogin({}, tmpdir()).NATS_USER).toBeUndefined();
  });
});
