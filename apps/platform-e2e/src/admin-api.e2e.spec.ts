import {
  accessTokenOf,
  type ApiResponse,
  asApiAnswers,
  ApiTestClient,
  eventually,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
  USER_PASSWORD,
  usersWithRoles,
} from '@cpc/testing';
import { jest } from '@jest/globals';

// The set-up runs admin CLI commands, each a process of its own.
jest.setTimeout(180_000);

const ADMIN = '/api/v1/admin';
/** The address a trusted proxy (the test itself, 127.0.0.1) says the client has. */
const CLIENT_ADDRESS = '203.0.113.7';
const OTHER_UUID = '00000000-0000-4000-8000-000000000000';

interface TokenPair {
  access_token: string;
  refresh_token: string;
}

/**
 * The admin API against the running services (api-gateway and auth-service on a real NATS and PostgreSQL): users,
 * roles and API keys of the caller's tenant only, no permission handed out beyond the caller's own, the last enabled
 * holder of `*` kept under concurrent deletes, a key's private key shown once, credential changes in force at once,
 * and every change, through the API or the CLI, in the audit log.
 */
describe('admin API', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  /** acme: owner holds `*`; staff holds the admin permissions and asset, but not `*`. */
  let acme: Record<string, string>;
  let other: Record<string, string>;

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'api-gateway'],
      env: { TRUSTED_PROXIES: '127.0.0.1', REVOCATION_POLL_INTERVAL_SECONDS: '1' },
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    acme = await tenantWithUsers(platform, api, 'acme', { owner: '*', staff: 'admin,asset' });
    other = await tenantWithUsers(platform, api, 'other', { owner: '*' });
  }, 180_000);

  afterAll(() => platform?.stop());

  const call = (method: string, path: string, token: string, body?: object): Promise<ApiResponse> =>
    api.call(method, `${ADMIN}${path}`, {
      token,
      headers: { 'x-forwarded-for': CLIENT_ADDRESS },
      ...(body ? { body } : {}),
    });
  const createRole = async (token: string, name: string, permissions: string[]) => {
    const response = await call('POST', '/roles', token, { name, permissions });
    expect(response.status).toBe(201);
    return response.body.role as { uuid: string; name: string };
  };
  const createUser = async (token: string, email: string, role: string) => {
    const response = await call('POST', '/users', token, { email, password: USER_PASSWORD, role });
    expect(response.status).toBe(201);
    return response.body.user as { uuid: string; email: string };
  };
  const logIn = async (
    tenant: string,
    username: string,
    password: string,
    context = 'user',
  ): Promise<TokenPair> => {
    const response = await api.call<TokenPair>('POST', '/api/v1/oauth/token', {
      body: { username, password, tenant, context },
    });
    expect(response.status).toBe(200);
    return response.body;
  };
  const expectRefused = async (pair: TokenPair) => {
    const refresh = await api.call('POST', '/api/v1/oauth/token', {
      body: { grant_type: 'refresh_token', refresh_token: pair.refresh_token },
    });
    expect(refresh.status).toBe(401);
    const refused = await eventually(
      () => call('GET', '/roles', pair.access_token),
      (response: ApiResponse) => response.status !== 200,
    );
    expect(refused.status).toBe(401);
  };

  describe('users', () => {
    it('creates, lists, reads, changes and deletes a user; its password never comes back', async () => {
      await createRole(acme.owner, 'viewer', ['asset:locations:list']);
      const created = await call('POST', '/users', acme.owner, {
        email: 'Viewer@Acme.test',
        password: 'a-long-password',
        role: 'viewer',
        entity_type: 'employee',
      });
      expect(created.status).toBe(201);
      const user = created.body.user;
      expect(user).toMatchObject({
        email: 'viewer@acme.test',
        entity_type: 'employee',
        role: 'viewer',
        disabled: false,
      });
      expect(JSON.stringify(created.body)).not.toMatch(/password|hash/);

      const listed = await call('GET', '/users?filter[email]=VIEWER&limit=1', acme.owner);
      expect(listed.status).toBe(200);
      expect(listed.body.users).toEqual([user]);
      expect(listed.body.pagination).toEqual({ page: 1, total_pages: 1, page_size: 1, has_more: false });
      const byRole = await call('GET', '/users?filter[role]=owner&order_by=%2Bemail', acme.owner);
      expect(byRole.body.users.map((item: { email: string }) => item.email)).toEqual(['owner@acme.test']);
      expect((await call('GET', `/users/${user.uuid}`, acme.owner)).body).toEqual({ user });

      const changed = await call('PATCH', `/users/${user.uuid}`, acme.owner, {
        email: 'seer@acme.test',
        disabled: true,
      });
      expect(changed.status).toBe(200);
      expect(changed.body.user).toMatchObject({ email: 'seer@acme.test', disabled: true });
      const enabled = await call('PATCH', `/users/${user.uuid}`, acme.owner, {
        disabled: false,
        password: 'another-long-password',
      });
      expect(enabled.body.user.disabled).toBe(false);
      await logIn('acme', 'seer@acme.test', 'another-long-password', 'employee');

      expect(await call('DELETE', `/users/${user.uuid}`, acme.owner)).toMatchObject({
        status: 200,
        body: {},
      });
      expect((await call('GET', `/users/${user.uuid}`, acme.owner)).status).toBe(404);
    });

    it('answers bad input with 422 in the spec’s shape and writes nothing', async () => {
      const bad = await call('POST', '/users', acme.owner, {
        email: 'x',
        password: 'short',
        role: 'owner',
        admin: true,
      });
      expect(bad.status).toBe(422);
      expect(bad.body.errors.map((issue: { parameter: string }) => issue.parameter).sort()).toEqual([
        'admin',
        'email',
        'password',
      ]);
      const unknownRole = await call('POST', '/users', acme.owner, {
        email: 'nobody@acme.test',
        password: USER_PASSWORD,
        role: 'no-such-role',
      });
      expect(unknownRole.status).toBe(404);
      const duplicate = await call('POST', '/users', acme.owner, {
        email: 'staff@acme.test',
        password: USER_PASSWORD,
        role: 'owner',
      });
      expect(duplicate.status).toBe(422);
      expect(duplicate.body.errors[0]).toMatchObject({ parameter: 'email', errorKey: 'already_exists' });
      expect((await call('GET', '/users/not-a-uuid', acme.owner)).status).toBe(422);
      expect((await call('PATCH', `/users/${OTHER_UUID}`, acme.owner, { disabled: 'yes' })).status).toBe(422);
      // A NUL cannot even be stored; a year PostgreSQL does not know is no instant.
      expect((await call('GET', '/users?filter[email]=%00', acme.owner)).status).toBe(422);
      expect((await call('GET', '/audit-events?filter[from]=0000-01-01T00:00:00Z', acme.owner)).status).toBe(
        422,
      );
      const listed = await call('GET', '/users?filter[email]=nobody', acme.owner);
      expect(listed.body.users).toEqual([]);
    });

    it('shows and touches no other tenant’s users or roles: 404, as if they did not exist', async () => {
      const stranger = (await call('GET', '/users?filter[email]=owner', other.owner)).body.users[0];
      expect(stranger.email).toBe('owner@other.test');
      expect((await call('GET', `/users/${stranger.uuid}`, acme.owner)).status).toBe(404);
      expect((await call('PATCH', `/users/${stranger.uuid}`, acme.owner, { disabled: true })).status).toBe(
        404,
      );
      expect((await call('DELETE', `/users/${stranger.uuid}`, acme.owner)).status).toBe(404);
      const acmeEmails = (await call('GET', '/users', acme.owner)).body.users.map(
        (user: { email: string }) => user.email,
      );
      expect(acmeEmails).not.toContain('owner@other.test');
      await logIn('other', 'owner@other.test', USER_PASSWORD);
      const strangeRole = (await call('GET', '/roles?filter[name]=owner', other.owner)).body.roles[0];
      expect((await call('GET', `/roles/${strangeRole.uuid}`, acme.owner)).status).toBe(404);
      expect((await call('PATCH', `/roles/${strangeRole.uuid}`, acme.owner, { name: 'mine' })).status).toBe(
        404,
      );
      expect((await call('DELETE', `/roles/${strangeRole.uuid}`, acme.owner)).status).toBe(404);
      // A role of another tenant cannot be given by its name either: names are looked up in the caller's tenant.
      const otherOnly = await call('POST', '/roles', other.owner, {
        name: 'other-only',
        permissions: ['asset'],
      });
      expect(otherOnly.status).toBe(201);
      const given = await call('POST', '/users', acme.owner, {
        email: 'x@acme.test',
        password: USER_PASSWORD,
        role: 'other-only',
      });
      expect(given.status).toBe(404);
      expect((await call('GET', `/roles/${strangeRole.uuid}`, other.owner)).body.role.name).toBe('owner');
    });

    it('refuses a caller without the permission with 403', async () => {
      const { reader } = await usersWithRoles(platform, api, 'acme', { reader: 'admin:users:list' });
      expect((await call('GET', '/users', reader)).status).toBe(200);
      expect((await call('GET', '/roles', reader)).status).toBe(403);
      const refused = await call('POST', '/users', reader, {
        email: 'x@acme.test',
        password: USER_PASSWORD,
        role: 'reader',
      });
      expect(refused).toMatchObject({
        status: 403,
        body: { error: 'missing permission admin:users:create' },
      });
    });
  });

  describe('roles and escalation', () => {
    it('creates, lists, renames and deletes a role; one with holders is not deleted', async () => {
      const role = await createRole(acme.staff, 'fitters', ['asset:plugs']);
      const listed = await call('GET', '/roles?filter[name]=FIT', acme.staff);
      expect(listed.body.roles).toEqual([role]);
      const renamed = await call('PATCH', `/roles/${role.uuid}`, acme.staff, {
        name: 'installers',
        permissions: ['asset:plugs', 'asset:controllers:read'],
      });
      expect(renamed.body.role).toMatchObject({
        name: 'installers',
        permissions: ['asset:plugs', 'asset:controllers:read'],
      });
      const holder = await createUser(acme.staff, 'installer@acme.test', 'installers');
      const refused = await call('DELETE', `/roles/${role.uuid}`, acme.staff);
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0]).toMatchObject({ parameter: 'uuid', errorKey: 'has_dependents' });
      expect((await call('DELETE', `/users/${holder.uuid}`, acme.staff)).status).toBe(200);
      expect((await call('DELETE', `/roles/${role.uuid}`, acme.staff)).status).toBe(200);
      expect((await call('GET', `/roles/${role.uuid}`, acme.staff)).status).toBe(404);
      const bad = await call('POST', '/roles', acme.staff, { name: 'x', permissions: ['Not A Permission'] });
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].parameter).toMatch(/^permissions/);
    });

    it('refuses to hand out or act on permissions the caller does not hold', async () => {
      const forbidden = async (response: Promise<ApiResponse>) => expect((await response).status).toBe(403);
      await forbidden(call('POST', '/roles', acme.staff, { name: 'root', permissions: ['*'] }));
      await forbidden(call('POST', '/roles', acme.staff, { name: 'ctl', permissions: ['control:commands'] }));
      const owners = (await call('GET', '/roles?filter[name]=owner', acme.staff)).body.roles[0];
      // Not to a new user, nor to the caller itself, nor to an API key.
      await forbidden(
        call('POST', '/users', acme.staff, { email: 'up@acme.test', password: USER_PASSWORD, role: 'owner' }),
      );
      const staffUser = (await call('GET', '/users?filter[email]=staff@', acme.staff)).body.users[0];
      await forbidden(call('PATCH', `/users/${staffUser.uuid}`, acme.staff, { role: 'owner' }));
      await forbidden(call('POST', '/api-keys', acme.staff, { role: 'owner' }));
      // Nor by widening or renaming a stronger role, nor by taking over a stronger account.
      await forbidden(call('PATCH', `/roles/${owners.uuid}`, acme.staff, { permissions: ['asset'] }));
      const ownerUser = (await call('GET', '/users?filter[email]=owner@', acme.staff)).body.users[0];
      await forbidden(call('PATCH', `/users/${ownerUser.uuid}`, acme.staff, { password: 'taken-over-now' }));
      await forbidden(call('DELETE', `/users/${ownerUser.uuid}`, acme.staff));
      // What it holds, it may hand out.
      const narrower = await createRole(acme.staff, 'plug-readers', ['asset:plugs:read']);
      expect(narrower.name).toBe('plug-readers');
      const roles = (await call('GET', '/roles?limit=50', acme.owner)).body.roles.map(
        (role: { name: string }) => role.name,
      );
      expect(roles).not.toContain('root');
      expect(roles).not.toContain('ctl');
    });
  });

  describe('API keys', () => {
    it('shows the private key once, at creation; the key signs in and its revocation is in force at once', async () => {
      await createRole(acme.owner, 'machines', ['admin:roles:list']);
      const created = await call('POST', '/api-keys', acme.owner, { role: 'machines', name: 'billing sync' });
      expect(created.status).toBe(201);
      const key = created.body.api_key;
      expect(key).toMatchObject({ name: 'billing sync', role: 'machines', revoked: false });
      expect(key.private_key).toMatch(/^sk_/);
      const { private_key: privateKey, ...view } = key;
      expect((await call('GET', `/api-keys/${key.uuid}`, acme.owner)).body).toEqual({ api_key: view });
      const listed = await call('GET', '/api-keys?filter[name]=billing', acme.owner);
      expect(listed.body.api_keys).toEqual([view]);
      expect(JSON.stringify(listed.body)).not.toContain(privateKey);

      const pair = await logIn('acme', key.public_key, privateKey, 'apikey');
      expect((await call('GET', '/roles', pair.access_token)).status).toBe(200);
      expect((await call('GET', '/users', pair.access_token)).status).toBe(403);

      const renamed = await call('PATCH', `/api-keys/${key.uuid}`, acme.owner, { name: 'billing' });
      expect(renamed.body.api_key).toEqual({ ...view, name: 'billing' });
      expect((await call('DELETE', `/api-keys/${key.uuid}`, acme.owner)).status).toBe(200);
      await expectRefused(pair);
      const again = await api.call('POST', '/api/v1/oauth/token', {
        body: { username: key.public_key, password: privateKey, tenant: 'acme', context: 'apikey' },
      });
      expect(again.status).toBe(401);
      expect((await call('GET', `/api-keys/${key.uuid}`, acme.owner)).body.api_key.revoked).toBe(true);
      expect((await call('GET', `/api-keys/${key.uuid}`, other.owner)).status).toBe(404);
    });
  });

  it('ends a user’s tokens at once when its password changes', async () => {
    await createUser(acme.owner, 'rotating@acme.test', 'staff');
    const pair = await logIn('acme', 'rotating@acme.test', USER_PASSWORD);
    const uuid = (await call('GET', '/users?filter[email]=rotating', acme.owner)).body.users[0].uuid;
    expect(
      (await call('PATCH', `/users/${uuid}`, acme.owner, { password: 'brand-new-password' })).status,
    ).toBe(200);
    await expectRefused(pair);
    await logIn('acme', 'rotating@acme.test', 'brand-new-password');
  });

  it('keeps the last enabled holder of * under concurrent deletes, disables and role changes', async () => {
    await platform.admin(['tenant:create', '--slug', 'solo']);
    await platform.admin(['role:create', '--tenant', 'solo', '--name', 'root', '--permissions', '*']);
    await platform.admin(['role:create', '--tenant', 'solo', '--name', 'plain', '--permissions', 'asset']);
    // An API key with `*` acts; API keys are not counted as holders, so only the users below are.
    const key = await platform.admin(['apikey:create', '--tenant', 'solo', '--role', 'root']);
    const token = (await logIn('solo', key.public_key, key.private_key, 'apikey')).access_token;
    const emails = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => `${name}@solo.test`);
    const users: { uuid: string }[] = [];
    for (const email of emails) users.push(await createUser(token, email, 'root'));
    const changes = users.map((user, index) =>
      index % 3 === 0
        ? call('DELETE', `/users/${user.uuid}`, token)
        : call(
            'PATCH',
            `/users/${user.uuid}`,
            token,
            index % 3 === 1 ? { disabled: true } : { role: 'plain' },
          ),
    );
    const statuses = (await Promise.all(changes)).map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(users.length - 1);
    const refused = (await Promise.all(changes)).find((response) => response.status !== 200)!;
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ parameter: 'uuid', errorKey: 'last_super_admin' });
    const holders = (await call('GET', '/users?filter[role]=root&filter[disabled]=false', token)).body.users;
    expect(holders).toHaveLength(1);
    // Nor can the role of the last holder lose `*`; the CLI's operator, who can always make a new admin, can.
    const root = (await call('GET', '/roles?filter[name]=root', token)).body.roles[0];
    const narrowed = await call('PATCH', `/roles/${root.uuid}`, token, { permissions: ['asset'] });
    expect(narrowed.status).toBe(422);
    await platform.admin(['user:disable', '--tenant', 'solo', '--email', holders[0].email]);
    const left = await call('GET', '/users?filter[role]=root&filter[disabled]=false', token);
    expect(left.body.users).toEqual([]);
  });

  it('records every change through the API and the CLI in the audit log, without secrets', async () => {
    const since = new Date().toISOString();
    const user = await createUser(acme.owner, 'audited@acme.test', 'staff');
    await call('PATCH', `/users/${user.uuid}`, acme.owner, { password: 'audited-password-2' });
    await platform.admin(['user:disable', '--tenant', 'acme', '--email', 'audited@acme.test']);
    const ownerUuid = (await call('GET', '/users?filter[email]=owner@', acme.owner)).body.users[0].uuid;

    const events = await call('GET', `/audit-events?filter[target_uuid]=${user.uuid}`, acme.owner);
    expect(events.status).toBe(200);
    const [disabled, passwordChanged, created] = events.body.audit_events;
    expect(created).toMatchObject({
      kind: 'user.created',
      actor: { type: 'user', uuid: ownerUuid, name: 'owner@acme.test' },
      source_address: CLIENT_ADDRESS,
      target: { type: 'user', uuid: user.uuid },
      after: { email: 'audited@acme.test', role: 'staff', disabled: false },
    });
    expect(created).not.toHaveProperty('before');
    expect(passwordChanged).toMatchObject({ kind: 'user.updated', changed_fields: ['password'] });
    expect(disabled).toMatchObject({
      kind: 'user.updated',
      actor: { type: 'cli' },
      changed_fields: ['disabled'],
      before: { disabled: false },
      after: { disabled: true },
    });
    expect(disabled).not.toHaveProperty('source_address');
    expect(disabled.actor).not.toHaveProperty('uuid');
    expect(JSON.stringify(events.body)).not.toMatch(/audited-password|hash|private_key"/);

    const byActor = await call(
      'GET',
      `/audit-events?filter[actor_uuid]=${ownerUuid}&filter[kind]=user.created&filter[from]=${since}&limit=1`,
      acme.owner,
    );
    expect(byActor.body.audit_events).toEqual([created]);
    expect(byActor.body.pagination).toMatchObject({ page: 1, page_size: 1 });
    const before = await call(
      'GET',
      `/audit-events?filter[to]=${since}&filter[target_uuid]=${user.uuid}`,
      acme.owner,
    );
    expect(before.body.audit_events).toEqual([]);
    const byCli = await call('GET', '/audit-events?filter[actor_type]=cli&limit=50', acme.owner);
    expect(byCli.body.audit_events.length).toBeGreaterThan(0);
    expect((await call('GET', '/audit-events?filter[kind]=nonsense', acme.owner)).status).toBe(422);
    const tenantCreated = await call('GET', '/audit-events?filter[kind]=tenant.created', acme.owner);
    expect(tenantCreated.body.audit_events).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ type: 'cli' }),
        after: expect.objectContaining({ slug: 'acme' }),
      }),
    ]);
    // The operator reads the same log with the CLI.
    const fromCli = await platform.admin(['audit:list', '--tenant', 'acme']);
    expect(asApiAnswers(fromCli.audit_events[0])).toEqual(events.body.audit_events[0]);
    // Another tenant sees none of it.
    const elsewhere = await call('GET', `/audit-events?filter[target_uuid]=${user.uuid}`, other.owner);
    expect(elsewhere.body.audit_events).toEqual([]);
    const { staff } = acme;
    expect((await call('GET', '/audit-events', staff)).status).toBe(200);
    await accessTokenOf(api, 'acme', 'staff@acme.test');
  });
});
