import { AUTH_SERVICE_TUNING, loadAuthServiceConfig } from './auth-service.config.js';

describe('auth-service tuning', () => {
  it('is the same for every instance, whatever the environment, and cannot be changed at run time', () => {
    const config = loadAuthServiceConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x' });
    expect(config.tuning).toBe(AUTH_SERVICE_TUNING);
    expect(Object.isFrozen(config.tuning)).toBe(true);
  });

  it('keeps the values the service was measured and tested with', () => {
    expect(AUTH_SERVICE_TUNING).toEqual({
      databasePoolSize: 10,
      activeSigningKeyCacheMs: 30_000,
      retiredSigningKeyGraceSeconds: 60,
      revocationsPageSize: 1000,
      tokenLimitSweepMaxIntervalSeconds: 300,
    });
  });
});
