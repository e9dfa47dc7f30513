import {
  ApiTestClient,
  AssetsTestData,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
  unique,
} from '@cpc/testing';

describe('authorization API: id tokens', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let ops: string;
  let viewer: string;
  let rival: string;
  let data: AssetsTestData;

  const call = (method: string, path: string, body?: unknown, token = ops) =>
    api.call(method, `/api/v1/authorization/${path}`, { token, ...(body === undefined ? {} : { body }) });

  const create = async (body: Record<string, unknown>, token = ops) => {
    const response = await call('POST', 'id-tokens', { type: 'iso14443', ...body }, token);
    expect(response.status).toBe(201);
    return response.body.id_token as { uuid: string; id_token: string };
  };

  beforeAll(async () => {
    platform = await startPlatformUnderTest({ services: ['auth-service', 'assets-service', 'api-gateway'] });
    api = await ApiTestClient.connect(platform.apiUrl);
    ({ ops, viewer } = await tenantWithUsers(platform, api, 'acme', {
      ops: 'authorization,asset',
      viewer: 'authorization:id-tokens:read,authorization:id-tokens:list',
    }));
    ({ rival } = await tenantWithUsers(platform, api, 'rival', { rival: 'authorization,asset' }));
    data = new AssetsTestData(api, ops);
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('creates, reads, lists, changes and deletes a token with every field', async () => {
    const location = await data.location();
    const group = await create({ id_token: unique('FLEET'), type: 'central' });
    const response = await call('POST', 'id-tokens', {
      id_token: 'AbC123',
      type: 'iso14443',
      status: 'accepted',
      expires_at: '2030-01-02T03:04:05Z',
      group_id_token: { id_token: group.id_token.toLowerCase(), type: 'central' },
      contract_reference: 'contract 42',
      allowed_location_uuids: [location.uuid.toUpperCase()],
    });
    expect(response.status).toBe(201);
    const token = response.body.id_token;
    expect(token).toEqual({
      uuid: expect.any(String),
      id_token: 'AbC123',
      type: 'iso14443',
      status: 'accepted',
      expires_at: '2030-01-02T03:04:05Z',
      group_id_token: { uuid: group.uuid, id_token: group.id_token, type: 'central' },
      contract_reference: 'contract 42',
      allowed_location_uuids: [location.uuid],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await call('GET', `id-tokens/${token.uuid}`, undefined, viewer)).body.id_token).toEqual(token);

    const listed = await call(
      'GET',
      'id-tokens?filter[id_token]=abc123&filter[type]=iso14443',
      undefined,
      viewer,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.id_tokens).toEqual([token]);
    expect(listed.body.pagination).toEqual({
      page: 1,
      total_pages: 1,
      page_size: 20,
      has_more: false,
      cursor: {},
    });
    const grouped = await call('GET', `id-tokens?filter[group_id_token]=${group.uuid}`);
    expect(grouped.body.id_tokens.map((item: { uuid: string }) => item.uuid)).toEqual([token.uuid]);

    const patched = await call('PATCH', `id-tokens/${token.uuid}`, {
      status: 'blocked',
      expires_at: null,
      group_id_token: null,
      allowed_location_uuids: [],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.id_token).toMatchObject({
      status: 'blocked',
      contract_reference: 'contract 42',
      allowed_location_uuids: [],
    });
    for (const unset of ['expires_at', 'group_id_token'])
      expect(patched.body.id_token).not.toHaveProperty(unset);

    expect((await call('DELETE', `id-tokens/${token.uuid}`)).status).toBe(200);
    expect((await call('GET', `id-tokens/${token.uuid}`)).status).toBe(404);
  });

  it('refuses bad fields, a second token with the same value and type, and unknown references with 422', async () => {
    const value = unique('DUP');
    await create({ id_token: value });
    const duplicate = await call('POST', 'id-tokens', { id_token: value.toLowerCase(), type: 'iso14443' });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.errors).toEqual([
      expect.objectContaining({ parameter: 'id_token', errorKey: 'already_exists' }),
    ]);
    // The same value with another type is another token.
    await create({ id_token: value, type: 'key_code' });

    const bad = await call('POST', 'id-tokens', {
      id_token: 'x'.repeat(37),
      type: 'ISO14443',
      status: 'ok',
      expires_at: 'tomorrow',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((error: { parameter: string }) => error.parameter).sort()).toEqual([
      'expires_at',
      'id_token',
      'status',
      'type',
    ]);

    const rivalLocation = await new AssetsTestData(api, rival).location();
    const unknown = await call('POST', 'id-tokens', {
      id_token: unique('REF'),
      type: 'iso14443',
      group_id_token: { id_token: 'NOBODY', type: 'central' },
      allowed_location_uuids: [rivalLocation.uuid],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([
      expect.objectContaining({ parameter: 'group_id_token', errorKey: 'not_found' }),
      expect.objectContaining({ parameter: 'allowed_location_uuids', errorKey: 'not_found' }),
    ]);
  });

  it('refuses to delete a group token while others name it', async () => {
    const group = await create({ id_token: unique('GROUP'), type: 'central' });
    const member = await create({
      id_token: unique('MEMBER'),
      group_id_token: { id_token: group.id_token, type: 'central' },
    });
    const refused = await call('DELETE', `id-tokens/${group.uuid}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ parameter: 'uuid', errorKey: 'has_dependents' });
    expect((await call('DELETE', `id-tokens/${member.uuid}`)).status).toBe(200);
    expect((await call('DELETE', `id-tokens/${group.uuid}`)).status).toBe(200);
  });

  it("keeps tenants apart: another tenant's token is 404 and never listed", async () => {
    const token = await create({ id_token: unique('MINE') });
    for (const [method, body] of [['GET'], ['PATCH', { status: 'blocked' }], ['DELETE']] as const) {
      const response = await call(method, `id-tokens/${token.uuid}`, body, rival);
      expect(response.status).toBe(404);
    }
    const listed = await call('GET', `id-tokens?filter[id_token]=${token.id_token}`, undefined, rival);
    expect(listed.body.id_tokens).toEqual([]);
    // The rival may have a token with the same value and type.
    await create({ id_token: token.id_token }, rival);
    expect((await call('GET', `id-tokens/${token.uuid}`)).body.id_token.status).toBe('accepted');
  });

  it('answers 403 without the permission', async () => {
    expect((await call('POST', 'id-tokens', { id_token: 'X1', type: 'local' }, viewer)).status).toBe(403);
    expect((await call('POST', 'id-tokens:import', { id_tokens: [] }, viewer)).status).toBe(403);
    expect((await call('DELETE', `id-tokens/${crypto.randomUUID()}`, undefined, viewer)).status).toBe(403);
  });

  it('imports 10,000 tokens in one JSON body, then replaces known ones from NDJSON', async () => {
    const prefix = unique('IMP');
    const tokens = Array.from({ length: 10_000 }, (_, index) => ({
      id_token: `${prefix}-${index}`,
      type: 'iso14443',
      ...(index > 0 ? { group_id_token: { id_token: `${prefix}-0`, type: 'iso14443' } } : {}),
    }));
    const started = Date.now();
    const imported = await call('POST', 'id-tokens:import', { id_tokens: tokens });
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ created: 10_000, updated: 0 });
    expect(Date.now() - started).toBeLessThan(30_000);
    const page = await call(
      'GET',
      `id-tokens?filter[group_id_token]=${(await findByValue(`${prefix}-0`)).uuid}&limit=1`,
    );
    expect(page.body.pagination.total_pages).toBe(9_999);

    const ndjson = [
      JSON.stringify({ id_token: `${prefix}-1`, type: 'iso14443', status: 'blocked' }),
      '',
      JSON.stringify({ id_token: `${prefix}-new`, type: 'iso14443' }),
    ].join('\n');
    const replaced = await api.call('POST', '/api/v1/authorization/id-tokens:import', {
      token: ops,
      rawBody: ndjson,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ created: 1, updated: 1 });
    expect((await findByValue(`${prefix}-1`)).status).toBe('blocked');
  }, 120_000);

  it('imports all or nothing, naming each bad token by its index', async () => {
    const prefix = unique('BAD');
    const ndjson = [
      JSON.stringify({ id_token: `${prefix}-0`, type: 'iso14443' }),
      'not json',
      JSON.stringify({ id_token: `${prefix}-2`, type: 'rfid' }),
      JSON.stringify({ id_token: `${prefix}-3`, type: 'iso14443', surprise: 1 }),
    ].join('\n');
    const refused = await api.call('POST', '/api/v1/authorization/id-tokens:import', {
      token: ops,
      rawBody: ndjson,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((error: { parameter: string }) => error.parameter)).toEqual([
      'id_tokens[1]',
      'id_tokens[2].type',
      'id_tokens[3].surprise',
    ]);

    const references = await call('POST', 'id-tokens:import', {
      id_tokens: [
        { id_token: `${prefix}-a`, type: 'iso14443' },
        { id_token: `${prefix}-A`, type: 'iso14443' },
        {
          id_token: `${prefix}-b`,
          type: 'iso14443',
          group_id_token: { id_token: 'MISSING', type: 'central' },
        },
      ],
    });
    expect(references.status).toBe(422);
    expect(references.body.errors).toEqual([
      expect.objectContaining({ parameter: 'id_tokens[1].id_token', errorKey: 'duplicate' }),
      expect.objectContaining({ parameter: 'id_tokens[2].group_id_token', errorKey: 'not_found' }),
    ]);
    const listed = await call('GET', `id-tokens?filter[id_token]=${prefix}-a`);
    expect(listed.body.id_tokens).toEqual([]);

    const tooMany = await call('POST', 'id-tokens:import', {
      id_tokens: Array.from({ length: 10_001 }, (_, index) => ({ id_token: `T${index}`, type: 'local' })),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors[0]).toMatchObject({ parameter: 'id_tokens', errorKey: 'invalid_length' });
  }, 60_000);

  async function findByValue(value: string): Promise<{ uuid: string; status: string }> {
    const response = await call('GET', `id-tokens?filter[id_token]=${value}`);
    expect(response.body.id_tokens).toHaveLength(1);
    return response.body.id_tokens[0];
  }
});
