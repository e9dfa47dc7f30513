import { execFile } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import { adminCliEntryPath, ServiceProcess } from '@cpc/platform-launcher';
import { findFreePort, type PlatformUnderTest, startPlatformUnderTest } from '@cpc/testing';

const PASSWORD = 'correct-horse-9';
const FAILURES_PER_ACCOUNT_ADDRESS = 10;
const FAILURES_PER_ACCOUNT = 30;
const REQUESTS_PER_ADDRESS = 250;
const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

interface TokenAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { error?: string; access_token?: string };
}

/** POST /api/v1/oauth/token on a fresh socket from the loopback address `from` (127.0.0.x: the client address). */
function postToken(
  apiUrl: string,
  body: Record<string, string>,
  from: string,
  headers: Record<string, string> = {},
): Promise<TokenAnswer> {
  const url = new URL('/api/v1/oauth/token', apiUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: text === '' ? {} : (JSON.parse(text) as TokenAnswer['body']),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

interface AdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The compiled admin CLI with the platform's environment, `stdin` written to it and then closed. */
function runAdmin(
  platform: PlatformUnderTest,
  args: string[],
  { stdin = '', env = {} }: { stdin?: string; env?: Record<string, string> } = {},
): Promise<AdminRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [adminCliEntryPath(repositoryRoot), ...args],
      {
        env: { ...process.env, ...platform.env, ...platform.natsLogin('auth-service'), ...env },
        cwd: repositoryRoot,
        timeout: 60_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

const statusCounts = (answers: TokenAnswer[]) =>
  answers.reduce<Record<number, number>>(
    (counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
    {},
  );

/**
 * The token endpoint's limits against real processes: auth-service, and two api-gateway replicas in front of it,
 * spoken to from distinct loopback addresses. Failures count per (account, address) and per account, in
 * auth-service's database, so no replica doubles a limit and no address can lock another out of an account.
 */
describe('token endpoint limits across addresses and replicas', () => {
  let platform: PlatformUnderTest;
  let secondGateway: ServiceProcess;
  let gatewayA: string;
  let gatewayB: string;

  const login = (username: string, password: string, from: string, gateway = gatewayA, headers = {}) =>
    postToken(gateway, { username, password, tenant: 'acme' }, from, headers);
  const createUser = (email: string) =>
    platform.admin([
      ...['user:create', '--tenant', 'acme', '--email', email],
      ...['--password', PASSWORD, '--role', 'operator'],
    ]);

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'api-gateway'],
      env: {
        TRUSTED_PROXIES: '127.0.0.1',
        TOKEN_RATE_LIMIT_PER_ADDRESS: String(REQUESTS_PER_ADDRESS),
        TOKEN_FAILURE_LIMIT_PER_ACCOUNT_ADDRESS: String(FAILURES_PER_ACCOUNT_ADDRESS),
        TOKEN_FAILURE_LIMIT_PER_ACCOUNT: String(FAILURES_PER_ACCOUNT),
      },
    });
    const [apiPort, healthPort] = [await findFreePort(), await findFreePort()];
    secondGateway = new ServiceProcess({
      rootDir: repositoryRoot,
      service: 'api-gateway',
      env: {
        ...process.env,
        ...platform.env,
        ...platform.natsLogin('api-gateway'),
        API_PORT: String(apiPort),
        HEALTH_PORT: String(healthPort),
      },
    });
    await secondGateway.start();
    gatewayA = platform.apiUrl;
    gatewayB = `http://127.0.0.1:${apiPort}`;
    await platform.admin(['tenant:create', '--slug', 'acme']);
    await platform.admin(['role:create', '--tenant', 'acme', '--name', 'operator', '--permissions', 'asset']);
  }, 180_000);

  afterAll(async () => {
    await secondGateway?.stop();
    await platform?.stop();
  });

  it('locks out only the address that failed: another address still logs in with the right password', async () => {
    await createUser('victim@acme.test');
    for (let attempt = 0; attempt < FAILURES_PER_ACCOUNT_ADDRESS; attempt += 1)
      expect((await login('victim@acme.test', 'wrong-password', '127.0.0.2')).status).toBe(401);

    const lockedOut = await login('victim@acme.test', PASSWORD, '127.0.0.2');
    expect(lockedOut.status).toBe(429);
    expect(lockedOut.body).toEqual({ error: expect.any(String) });
    expect(Number(lockedOut.headers['retry-after'])).toBeGreaterThan(0);

    const owner = await login('victim@acme.test', PASSWORD, '127.0.0.3');
    expect(owner.status).toBe(200);
    expect(owner.body.access_token).toEqual(expect.any(String));
  });

  it('counts every spelling that reaches the account (white space, case, NFKC) on the one counter', async () => {
    await createUser('variant@acme.test');
    const variants = [
      ' variant@acme.test',
      'VARIANT@acme.test\t',
      '\tVariant@Acme.Test ',
      '\uff56\uff41\uff52\uff49\uff41\uff4e\uff54@acme.test',
      'variant@ACME.TEST  ',
    ];
    for (let attempt = 0; attempt < FAILURES_PER_ACCOUNT_ADDRESS; attempt += 1) {
      const answer = await login(variants[attempt % variants.length], 'wrong-password', '127.0.0.4');
      expect(answer.status).toBe(401);
    }
    for (const variant of variants) expect((await login(variant, PASSWORD, '127.0.0.4')).status).toBe(429);
    // The lookup normalizes the same way: the full-width spelling logs in from an address without failures.
    expect((await login(variants[3], PASSWORD, '127.0.0.5')).status).toBe(200);
  });

  it('holds the higher per-account threshold across addresses, except where the owner logged in before', async () => {
    await createUser('spread@acme.test');
    // The owner's usual address: one successful login makes it known to the account.
    expect((await login('spread@acme.test', PASSWORD, '127.0.0.18')).status).toBe(200);
    const addresses = ['127.0.0.6', '127.0.0.7', '127.0.0.8'];
    for (const address of addresses) {
      for (let attempt = 0; attempt < FAILURES_PER_ACCOUNT / addresses.length; attempt += 1)
        expect((await login('spread@acme.test', 'wrong-password', address)).status).toBe(401);
    }
    const fresh = await login('spread@acme.test', PASSWORD, '127.0.0.9');
    expect(fresh.status).toBe(429);
    expect(Number(fresh.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login('spread@acme.test', PASSWORD, '127.0.0.18')).status).toBe(200);
  });

  it('limits API-key logins by key id the same way', async () => {
    const key = await platform.admin(['apikey:create', '--tenant', 'acme', '--role', 'operator']);
    const keyLogin = (secret: string, from: string) =>
      postToken(
        gatewayA,
        { username: key.public_key, password: secret, tenant: 'acme', context: 'apikey' },
        from,
      );
    for (let attempt = 0; attempt < FAILURES_PER_ACCOUNT_ADDRESS; attempt += 1)
      expect((await keyLogin('sk_wrong-secret', '127.0.0.10')).status).toBe(401);
    expect((await keyLogin(key.private_key, '127.0.0.10')).status).toBe(429);
    expect((await keyLogin(key.private_key, '127.0.0.11')).status).toBe(200);
  });

  it('counts 200 parallel wrong passwords from one address as 200: only the threshold reach the check', async () => {
    await createUser('parallel@acme.test');
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => login('parallel@acme.test', 'wrong-password', '127.0.0.12')),
    );
    expect(statusCounts(answers)).toEqual({
      401: FAILURES_PER_ACCOUNT_ADDRESS,
      429: 200 - FAILURES_PER_ACCOUNT_ADDRESS,
    });
  });

  it('shares the failure count between two api-gateway replicas', async () => {
    await createUser('shared@acme.test');
    for (let attempt = 0; attempt < FAILURES_PER_ACCOUNT_ADDRESS; attempt += 1) {
      const gateway = attempt % 2 === 0 ? gatewayA : gatewayB;
      expect((await login('shared@acme.test', 'wrong-password', '127.0.0.13', gateway)).status).toBe(401);
    }
    expect((await login('shared@acme.test', PASSWORD, '127.0.0.13', gatewayA)).status).toBe(429);
    expect((await login('shared@acme.test', PASSWORD, '127.0.0.13', gatewayB)).status).toBe(429);
    expect((await login('shared@acme.test', PASSWORD, '127.0.0.14', gatewayB)).status).toBe(200);
  });

  it('shares the per-address request budget between the replicas instead of doubling it', async () => {
    const answers = await Promise.all(
      Array.from({ length: REQUESTS_PER_ADDRESS + 50 }, (_, index) =>
        postToken(
          index % 2 === 0 ? gatewayA : gatewayB,
          { grant_type: 'refresh_token', refresh_token: `made-up-${index}` },
          '127.0.0.15',
        ),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 401: REQUESTS_PER_ADDRESS, 429: 50 });
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    await createUser('spoofer@acme.test');
    for (let attempt = 0; attempt < FAILURES_PER_ACCOUNT_ADDRESS; attempt += 1) {
      const spoofed = { 'x-forwarded-for': `10.7.0.${attempt}` };
      expect(
        (await login('spoofer@acme.test', 'wrong-password', '127.0.0.16', gatewayA, spoofed)).status,
      ).toBe(401);
    }
    const another = { 'x-forwarded-for': '10.7.0.99' };
    expect((await login('spoofer@acme.test', PASSWORD, '127.0.0.16', gatewayA, another)).status).toBe(429);
  });

  it('tells the clients of a trusted proxy apart by X-Forwarded-For', async () => {
    await createUser('proxied@acme.test');
    const client = { 'x-forwarded-for': '10.8.0.1' };
    for (let attempt = 0; attempt < FAILURES_PER_ACCOUNT_ADDRESS; attempt += 1)
      expect((await login('proxied@acme.test', 'wrong-password', '127.0.0.1', gatewayB, client)).status).toBe(
        401,
      );
    expect((await login('proxied@acme.test', PASSWORD, '127.0.0.1', gatewayB, client)).status).toBe(429);
    const otherClient = { 'x-forwarded-for': '10.8.0.2' };
    expect((await login('proxied@acme.test', PASSWORD, '127.0.0.1', gatewayB, otherClient)).status).toBe(200);
  });

  describe('admin CLI password input', () => {
    it('creates a user with --password-stdin, printing no warning', async () => {
      const run = await runAdmin(
        platform,
        [
          ...['user:create', '--tenant', 'acme', '--email', 'stdin@acme.test'],
          '--password-stdin',
          '--role',
          'operator',
        ],
        { stdin: 'from stdin 123\n' },
      );
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(run.stdout)).toMatchObject({ email: 'stdin@acme.test' });
      expect((await login('stdin@acme.test', 'from stdin 123', '127.0.0.20')).status).toBe(200);
    });

    it('sets a password from CPC_ADMIN_PASSWORD, and from --password-stdin', async () => {
      await createUser('rotate@acme.test');
      const fromEnv = await runAdmin(
        platform,
        ['user:set-password', '--tenant', 'acme', '--email', 'rotate@acme.test'],
        { env: { CPC_ADMIN_PASSWORD: 'from-the-env-1' } },
      );
      expect(fromEnv).toMatchObject({ code: 0, stderr: '' });
      expect((await login('rotate@acme.test', PASSWORD, '127.0.0.21')).status).toBe(401);
      expect((await login('rotate@acme.test', 'from-the-env-1', '127.0.0.21')).status).toBe(200);

      const fromStdin = await runAdmin(
        platform,
        ['user:set-password', '--tenant', 'acme', '--email', 'rotate@acme.test', '--password-stdin'],
        { stdin: 'from-stdin-2\n' },
      );
      expect(fromStdin).toMatchObject({ code: 0, stderr: '' });
      expect((await login('rotate@acme.test', 'from-stdin-2', '127.0.0.21')).status).toBe(200);
    });

    it('still takes --password, warning on stderr that other users can read it', async () => {
      await createUser('flag@acme.test');
      const run = await runAdmin(platform, [
        ...['user:set-password', '--tenant', 'acme', '--email', 'flag@acme.test'],
        ...['--password', 'on-the-command-line'],
      ]);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/^warning: --password .*other users/);
      expect((await login('flag@acme.test', 'on-the-command-line', '127.0.0.22')).status).toBe(200);
    });

    it('refuses --password-stdin with nothing on standard input, changing nothing', async () => {
      await createUser('empty@acme.test');
      const run = await runAdmin(
        platform,
        ['user:set-password', '--tenant', 'acme', '--email', 'empty@acme.test', '--password-stdin'],
        { stdin: '' },
      );
      expect(run.code).toBe(64);
      expect(run.stderr).toMatch(/standard input has no password/);
      expect((await login('empty@acme.test', PASSWORD, '127.0.0.23')).status).toBe(200);
    });
  });
});
