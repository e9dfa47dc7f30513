import { loadAssetsServiceConfig } from '../assets-service.config.js';
import { OcppPasswordHasher } from './ocpp-password-hasher.js';
import {
  hashNeedsUpgrade,
  hashOcppPassword,
  type ScryptParameters,
  verifyOcppPassword,
} from './password-hash.js';

/** A low cost for the tests that are not about the cost. */
const CHEAP: ScryptParameters = { N: 1024, r: 8, p: 1 };

describe('OCPP password hashing', () => {
  it('verifies the password it hashed and nothing else', async () => {
    const hash = await hashOcppPassword('correct-horse-battery', CHEAP);
    expect(hash).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(hash).not.toContain('correct-horse-battery');
    await expect(verifyOcppPassword('correct-horse-battery', hash)).resolves.toBe(true);
    await expect(verifyOcppPassword('correct-horse-batterY', hash)).resolves.toBe(false);
    await expect(verifyOcppPassword('', hash)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashOcppPassword('same-password-1234', CHEAP)).not.toBe(
      await hashOcppPassword('same-password-1234', CHEAP),
    );
  });

  it('never matches a malformed stored hash, one of absurd cost, or the decoy', async () => {
    await expect(verifyOcppPassword('x', 'plain-text')).resolves.toBe(false);
    await expect(verifyOcppPassword('x', 'scrypt$16384$8$1$c2FsdA==$c2hvcnQ=')).resolves.toBe(false);
    const key = Buffer.alloc(32).toString('base64');
    await expect(verifyOcppPassword('x', `scrypt$${2 ** 30}$8$1$c2FsdA==$${key}`)).resolves.toBe(false);
    const hasher = new OcppPasswordHasher(
      loadAssetsServiceConfig({ DATABASE_URL: 'postgres://x@localhost/x', OCPP_PASSWORD_SCRYPT_LOG2_N: '10' })
        .chargePointAuthentication,
    );
    await expect(hasher.verify('anything-at-all-123', await hasher.decoyHash())).resolves.toBe(false);
    expect(await hasher.decoyHash()).toMatch(/^scrypt\$1024\$/);
  });

  it('uses N = 2^17, r = 8, p = 1 by default, and asks older hashes to be upgraded', async () => {
    const config = loadAssetsServiceConfig({
      DATABASE_URL: 'postgres://x@localhost/x',
    }).chargePointAuthentication;
    const hasher = new OcppPasswordHasher(config);
    expect(hasher.parameters).toEqual({ N: 131072, r: 8, p: 1 });
    const hash = await hasher.hash('correct-horse-battery');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    await expect(hasher.verify('correct-horse-battery', hash)).resolves.toBe(true);
    expect(hasher.needsUpgrade(hash)).toBe(false);
    const before = await hashOcppPassword('correct-horse-battery', { N: 16384, r: 8, p: 1 });
    expect(hasher.needsUpgrade(before)).toBe(true);
    expect(hashNeedsUpgrade(hash, CHEAP)).toBe(true);
  });
});
