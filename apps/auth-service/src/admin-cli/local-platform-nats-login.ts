import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where `npm start` keeps the passwords of the nats-server it starts itself (libs/platform-launcher). */
export const LOCAL_PLATFORM_NATS_PASSWORDS = join('.data', 'nats', 'passwords.json');

const LOCAL_NATS_URL = /^nats:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/;

/**
 * Beside `npm start`, whose own nats-server asks every client for a login, the admin CLI logs in as auth-service
 * with the password `npm start` keeps in `.data/nats/passwords.json`, so its announcements (revocations, signing
 * keys) reach the services at once. Only when no NATS login is configured and NATS is the local one.
 */
export function withLocalPlatformNatsLogin(
  env: NodeJS.ProcessEnv,
  repositoryRoot: string,
): NodeJS.ProcessEnv {
  if (env.NATS_USER !== undefined || env.NATS_PASSWORD !== undefined) return env;
  if (env.NATS_URL !== undefined && !LOCAL_NATS_URL.test(env.NATS_URL)) return env;
  const file = join(repositoryRoot, LOCAL_PLATFORM_NATS_PASSWORDS);
  if (!existsSync(file)) return env;
  try {
    const password = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)['auth-service'];
    return typeof password === 'string'
      ? { ...env, NATS_USER: 'auth-service', NATS_PASSWORD: password }
      : env;
  } catch {
    return env;
  }
}
