import { commandTypeForms, enumOf, type OpenApiDocument, toRequestValue } from './command-schemas';
import { ApiError, describeAnswer } from './errors';
import { grantCovers, readTokenClaims, scopeAllows } from './permissions';
import { backoffDelay, FailureStreak } from './polling';
import { ApiSession } from './session';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: Record<string, unknown>) =>
  `${base64url({ alg: 'RS256' })}.${base64url(claims)}.signature`;

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

const json = (status: number, body: unknown) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );

/** What a fake fetch needs of a request: its path, its JSON body and its bearer token. */
function requestOf(input: RequestInfo | URL, init?: RequestInit) {
  return {
    path: typeof input === 'string' ? input : '',
    body: typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, string>) : {},
    auth: new Headers(init?.headers).get('authorization') ?? '',
  };
}

describe('permissions from the token', () => {
  it('reads the scope claim and lets a grant cover what lies below it', () => {
    const claims = readTokenClaims(
      jwt({ sub: 'u1', tenant: 'acme', scope: 'asset:locations control', exp: 99 }),
    );
    expect(claims).toEqual({ sub: 'u1', tenant: 'acme', scope: ['asset:locations', 'control'], exp: 99 });
    expect(scopeAllows(claims.scope, 'asset:locations:delete')).toBe(true);
    expect(scopeAllows(claims.scope, 'control:commands:create')).toBe(true);
    expect(scopeAllows(claims.scope, 'asset:controllers:delete')).toBe(false);
    expect(grantCovers('asset:loc', 'asset:locations:list')).toBe(false);
    expect(grantCovers('*', 'anything:at:all')).toBe(true);
  });
});

describe('polling with backoff', () => {
  it('doubles the pause with each failure in a row, up to the maximum, and resets on success', () => {
    expect([0, 1, 2, 3, 10].map((failures) => backoffDelay(failures, 2000, 30_000))).toEqual([
      2000, 4000, 8000, 16000, 30000,
    ]);
    const streak = new FailureStreak();
    expect(streak.update({ dataUpdatedAt: 10, errorUpdatedAt: 0 })).toBe(0);
    expect(streak.update({ dataUpdatedAt: 10, errorUpdatedAt: 20 })).toBe(1);
    expect(streak.update({ dataUpdatedAt: 10, errorUpdatedAt: 20 })).toBe(1);
    expect(streak.update({ dataUpdatedAt: 10, errorUpdatedAt: 30 })).toBe(2);
    expect(streak.update({ dataUpdatedAt: 40, errorUpdatedAt: 30 })).toBe(0);
  });
});

describe('errors in words', () => {
  it('names the fields of a validation body and says what to do on the others', () => {
    const error = new ApiError(422, {
      errors: [
        {
          errorKey: 'invalid_format',
          message: 'country_code must be three capital letters',
          parameter: 'country_code',
        },
        { errorKey: 'required', message: 'name is required', parameter: 'name' },
      ],
    });
    expect(error.fieldErrors()).toEqual({
      country_code: 'country_code must be three capital letters',
      name: 'name is required',
    });
    expect(error.message).toBe(
      'The request was refused: country_code: country_code must be three capital letters; name: name is required.',
    );
    expect(describeAnswer(403, { error: 'missing permission asset:locations:delete' })).toBe(
      'Your role does not allow this (missing permission asset:locations:delete).',
    );
    expect(describeAnswer(429, { error: 'too many requests' }, 7)).toBe(
      'Too many requests (too many requests). Try again in 7 s.',
    );
  });
});

describe('the send-command form from the OpenAPI document', () => {
  const document: OpenApiDocument = {
    components: {
      schemas: {
        CreateCommandRequest: {
          oneOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }],
        },
        A: {
          properties: {
            type: { enum: ['soft_reset'] },
            target_type: { enum: ['controller'] },
            parameters: { type: 'object', maxProperties: 0 },
            valid_for_seconds: { type: 'integer' },
          },
          required: ['type'],
        },
        B: {
          properties: {
            type: { enum: ['change_availability'] },
            target_type: { enum: ['controller', 'connector'] },
            parameters: { $ref: '#/components/schemas/P' },
          },
          required: ['type', 'parameters'],
        },
        P: {
          type: 'object',
          properties: {
            availability: { type: 'string', enum: ['operative', 'inoperative'] },
            retries: { oneOf: [{ type: 'integer' }, { type: 'null' }] },
            periods: { type: 'array', items: { type: 'object' } },
          },
        },
        CommandBody: { properties: { status: { type: 'string', enum: ['pending', 'accepted'] } } },
      },
    },
  };

  it('lists each type with its targets and parameters, and converts what was typed to the API JSON', () => {
    const forms = commandTypeForms(document);
    expect(
      forms.map((form) => [form.type, form.targetTypes, form.parameters !== null, form.parametersRequired]),
    ).toEqual([
      ['soft_reset', ['controller'], false, false],
      ['change_availability', ['controller', 'connector'], true, true],
    ]);
    expect(
      toRequestValue(document, forms[1].parameters!, {
        availability: 'inoperative',
        retries: '3',
        periods: '[{"limit":16}]',
      }),
    ).toEqual({ availability: 'inoperative', retries: 3, periods: [{ limit: 16 }] });
    expect(toRequestValue(document, forms[1].parameters!, { availability: '', retries: 'x' })).toEqual({
      retries: 'x',
    });
    expect(enumOf(document, 'CommandBody', 'status')).toEqual(['pending', 'accepted']);
  });
});

describe('ApiSession', () => {
  const tokens = (n: number, scope = '*') => ({
    access_token: jwt({ sub: 'u1', tenant: 'acme', scope, exp: 2_000_000_000 + n }),
    refresh_token: `refresh-${n}`,
    token_type: 'Bearer',
    expires_in: 3600,
  });

  it('refreshes once on a 401, retries, and keeps the rotated refresh token', async () => {
    const storage = new MemoryStorage();
    const calls: string[] = [];
    let refreshes = 0;
    const fetchImpl = (input: RequestInfo | URL, init?: RequestInit) => {
      const { path, body, auth } = requestOf(input, init);
      calls.push(`${path} ${body.grant_type ?? ''} ${body.refresh_token ?? ''}`.trim());
      if (path === '/api/v1/oauth/token') {
        if (body.grant_type === 'password') return json(200, tokens(1));
        refreshes += 1;
        return json(200, tokens(2));
      }
      return auth === `Bearer ${tokens(2).access_token}`
        ? json(200, { ok: true })
        : json(401, { error: 'access token expired' });
    };
    const session = new ApiSession(storage, fetchImpl);
    await session.signIn({ tenant: 'acme', username: 'ops@acme.test', password: 'secret-1', apiKey: false });
    const answers = await Promise.all([session.request('GET', '/a'), session.request('GET', '/b')]);
    expect(answers).toEqual([{ ok: true }, { ok: true }]);
    expect(refreshes).toBe(1);
    expect(calls.filter((call) => call.includes('refresh_token refresh-1'))).toHaveLength(1);
    expect(storage.getItem('cpc-console.refresh-token')).toBe('refresh-2');
    session.signOut();
    expect(storage.items.size).toBe(0);
    expect(session.snapshot()).toBeNull();
  });

  it('ends the session, in words, when the refresh token is refused', async () => {
    const storage = new MemoryStorage();
    const fetchImpl = (input: RequestInfo | URL, init?: RequestInit) => {
      const { path, body } = requestOf(input, init);
      if (path === '/api/v1/oauth/token') {
        return body.grant_type === 'password'
          ? json(200, tokens(1, 'asset'))
          : json(401, { error: 'invalid credentials' });
      }
      return json(401, { error: 'access token revoked' });
    };
    const session = new ApiSession(storage, fetchImpl);
    const heard: boolean[] = [];
    session.subscribe(() => heard.push(session.snapshot() !== null));
    await session.signIn({ tenant: 'acme', username: 'key-public', password: 'key-private', apiKey: true });
    expect(session.can('asset:plugs:delete')).toBe(true);
    expect(session.can('control:commands:create')).toBe(false);
    await expect(session.request('GET', '/a')).rejects.toBeInstanceOf(ApiError);
    expect(session.snapshot()).toBeNull();
    expect(session.endedReason).toMatch(/Sign in again/);
    expect(heard[0]).toBe(true);
    expect(heard[heard.length - 1]).toBe(false);
  });
});
