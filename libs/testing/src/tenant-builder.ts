import type { ApiTestClient } from './api-test-client.js';
import type { PlatformUnderTest } from './platform-under-test.js';

/** The password of every user the builder creates. */
export const USER_PASSWORD = 'correct-horse-9';

/** Signs a user of tenant `slug` in through the HTTP API; the access token, or an error saying what came back. */
export async function accessTokenOf(
  api: ApiTestClient,
  slug: string,
  email: string,
  password = USER_PASSWORD,
): Promise<string> {
  const response = await api.call<{ access_token: string }>('POST', '/api/v1/oauth/token', {
    body: { username: email, password, tenant: slug },
  });
  if (response.status !== 200) throw new Error(`token for ${email}: ${JSON.stringify(response.body)}`);
  return response.body.access_token;
}

/**
 * In the existing tenant `slug`, creates one role and one user per given role (role name → permissions, comma
 * separated) through the admin CLI and returns each user's access token. Users are `<role>@<slug>.test`.
 */
export async function usersWithRoles(
  platform: PlatformUnderTest,
  api: ApiTestClient,
  slug: string,
  roles: Record<string, string>,
): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const [role, permissions] of Object.entries(roles)) {
    await platform.admin(['role:create', '--tenant', slug, '--name', role, '--permissions', permissions]);
    const email = `${role}@${slug}.test`;
    await platform.admin([
      ...['user:create', '--tenant', slug, '--email', email],
      ...['--password', USER_PASSWORD, '--role', role],
    ]);
    tokens[role] = await accessTokenOf(api, slug, email);
  }
  return tokens;
}

/** Creates tenant `slug`, then its users as usersWithRoles does; returns each user's access token by role. */
export async function tenantWithUsers(
  platform: PlatformUnderTest,
  api: ApiTestClient,
  slug: string,
  roles: Record<string, string>,
): Promise<Record<string, string>> {
  await platform.admin(['tenant:create', '--slug', slug]);
  return usersWithRoles(platform, api, slug, roles);
}
