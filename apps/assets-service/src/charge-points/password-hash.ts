import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';

/** scrypt's cost parameters; N is a power of two. */
export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
}

/** Today's recommendation for scrypt (OWASP): N = 2^17, r = 8, p = 1, about 128 MiB and a few hundred ms per run. */
export const DEFAULT_SCRYPT_PARAMETERS: ScryptParameters = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Refuse stored hashes that would make one check take more than 1 GiB (a corrupt or hostile row). */
const MAX_STORED_COST_BYTES = 1024 * 1024 * 1024;

/** scrypt needs 128·r·(N + p + 2) bytes; Node's default cap (32 MiB) is below what N = 2^17 needs. */
function memoryFor({ N, r, p }: ScryptParameters): number {
  return 128 * r * (N + p + 2);
}

function derive(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = { ...parameters, maxmem: memoryFor(parameters) + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$key`, salt and key in base64: the parameters travel with the hash so they can change later. */
export async function hashOcppPassword(
  password: string,
  parameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS,
): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, parameters);
  return [
    'scrypt',
    parameters.N,
    parameters.r,
    parameters.p,
    salt.toString('base64'),
    key.toString('base64'),
  ].join('$');
}

interface StoredHash {
  parameters: ScryptParameters;
  salt: Buffer;
  key: Buffer;
}

function parseStoredHash(stored: string): StoredHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const key = Buffer.from(parts[5], 'base64');
  if (![N, r, p].every((value) => Number.isSafeInteger(value) && value > 0) || key.length !== KEY_LENGTH)
    return undefined;
  if (memoryFor({ N, r, p }) > MAX_STORED_COST_BYTES) return undefined;
  return { parameters: { N, r, p }, salt: Buffer.from(parts[4], 'base64'), key };
}

/** Constant-time comparison; a malformed stored hash never matches. */
export async function verifyOcppPassword(password: string, stored: string): Promise<boolean> {
  const hash = parseStoredHash(stored);
  if (!hash) return false;
  const actual = await derive(password, hash.salt, hash.parameters);
  return timingSafeEqual(actual, hash.key);
}

/** Whether a (verified) stored hash was made with other parameters than `current`, so it is hashed anew. */
export function hashNeedsUpgrade(stored: string, current: ScryptParameters): boolean {
  const hash = parseStoredHash(stored);
  return (
    !hash ||
    hash.parameters.N !== current.N ||
    hash.parameters.r !== current.r ||
    hash.parameters.p !== current.p
  );
}
