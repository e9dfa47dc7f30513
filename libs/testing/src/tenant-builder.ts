import type { ApiTestClient } from './api-test-client.js';
import type { PlatformUnderTest } from './platform-under-test.js';

export const USER_PASSWORD = 'correct-horse-9';

/**
 * Creates a tenant with one user per given role (role name → permissions) and returns each user's access token.
 * Users are `<role>@<slug>.test`.
 */
export async function tenantWithUsers(
  platform: PlatformUnderTest,
  api: ApiTestClient,
  slug: string,
  roles: Record<string, string>,
): Promise<Record<string, string>> {
  await platform.admin(['tenant:create', '--slug', slug]);
  const tokens: Record<string, string> = {};
  for (const [role, permissions] of Object.entries(roles)) {
    await platform.admin(['role:create', '--tenant', slug, '--name', role, '--permissions', permissions]);
    const email = `${role}@${slug}.test`;
    await platform.admin([
      ...['user:create', '--tenant', slug, '--email', email],
      ...['--password', USER_PASSWORD, '--role', role],
    ]);
    const response = await api.call<{ access_token: string }>('POST', '/api/v1/oauth/token', {
      body: { username: email, password: USER_PASSWORD, tenant: slug },
    });
    if (response.status !== 200) throw new Error(`token for ${email}: ${JSON.stringify(response.body)}`);
    tokens[role] = response.body.access_token;
  }
  return tokens;
}
