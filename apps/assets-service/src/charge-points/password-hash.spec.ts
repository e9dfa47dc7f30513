import { decoyPasswordHash, hashOcppPassword, verifyOcppPassword } from './password-hash.js';

describe('OCPP password hashing', () => {
  it('verifies the password it hashed and nothing else', async () => {
    const hash = await hashOcppPassword('correct-horse-battery');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(hash).not.toContain('correct-horse-battery');
    await expect(verifyOcppPassword('correct-horse-battery', hash)).resolves.toBe(true);
    await expect(verifyOcppPassword('correct-horse-batterY', hash)).resolves.toBe(false);
    await expect(verifyOcppPassword('', hash)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashOcppPassword('same-password-1234')).not.toBe(
      await hashOcppPassword('same-password-1234'),
    );
  });

  it('never matches a malformed stored hash or the decoy', async () => {
    await expect(verifyOcppPassword('x', 'plain-text')).resolves.toBe(false);
    await expect(verifyOcppPassword('x', 'scrypt$16384$8$1$c2FsdA==$c2hvcnQ=')).resolves.toBe(false);
    await expect(verifyOcppPassword('anything-at-all-123', await decoyPasswordHash())).resolves.toBe(false);
  });
});
