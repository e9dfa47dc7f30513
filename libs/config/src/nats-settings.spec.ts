import { type ConfigError, type EnvReader, loadConfig } from './env-reader.js';
import { readCommonServiceConfig } from './common-service-config.js';

const load = (env: Record<string, string>) =>
  loadConfig('some-service', (reader: EnvReader) => readCommonServiceConfig(reader, 3000), env);

describe('NATS credentials (NATS_USER, NATS_PASSWORD)', () => {
  it('reads both, or none (a broker without authentication)', () => {
    expect(
      load({ NATS_USER: 'assets-service', NATS_PASSWORD: 'a-long-enough_password-1' }).natsCredentials,
    ).toEqual({
      user: 'assets-service',
      password: 'a-long-enough_password-1',
    });
    expect(load({ NODE_ENV: 'production' }).natsCredentials).toBeUndefined();
  });

  it('stops at start-up with only one of the two, or a password nats-server would misread', () => {
    const problems = (env: Record<string, string>) => {
      try {
        load(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ NATS_USER: 'assets-service' })).toEqual([
      'NATS_USER and NATS_PASSWORD are set together or not at all',
    ]);
    for (const password of [
      'short-1',
      '1234567890123456789',
      'with spaces in the password',
      'dollar$sign-password',
    ]) {
      expect(problems({ NATS_USER: 'assets-service', NATS_PASSWORD: password })).toEqual([
        'NATS_PASSWORD must be at least 16 characters of letters, digits, - and _ (not digits alone)',
      ]);
    }
  });

  it('never shows the password in its problems', () => {
    const error = (() => {
      try {
        load({ NATS_USER: 'assets-service', NATS_PASSWORD: 'secret$value-that-is-long' });
      } catch (thrown) {
        return thrown as Error;
      }
    })();
    expect(error?.message).not.toContain('secret$value');
  });
});
