import type { EnvReader } from './env-reader.js';

/** A NATS user and its password (NATS_USER, NATS_PASSWORD); never logged. */
export interface NatsCredentials {
  user: string;
  password: string;
}

/**
 * Letters, digits, `-` and `_`: nats-server reads each password from an environment variable of its own and parses the
 * value as configuration, where other characters (or digits alone) would change it.
 */
const NATS_PASSWORD_PATTERN = /^(?=.*[A-Za-z_-])[A-Za-z0-9_-]{16,}$/;

/**
 * NATS_USER and NATS_PASSWORD: both, or neither for a broker without authentication. Whether they are needed is the
 * broker's to say: one with the platform's authorization refuses a client without them (or with wrong ones) at connect.
 */
export function readNatsCredentials(env: EnvReader): NatsCredentials | undefined {
  const user = env.optionalString('NATS_USER');
  const password = env.optionalString('NATS_PASSWORD');
  if (user === undefined && password === undefined) return undefined;
  if (user === undefined || password === undefined) {
    env.problems.push('NATS_USER and NATS_PASSWORD are set together or not at all');
    return undefined;
  }
  if (!NATS_PASSWORD_PATTERN.test(password)) {
    env.problems.push(
      'NATS_PASSWORD must be at least 16 characters of letters, digits, - and _ (not digits alone)',
    );
  }
  return { user, password };
}
