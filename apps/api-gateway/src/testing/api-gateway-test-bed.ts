import { generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import {
  type AccessTokenClaims,
  AuthSubjects,
  ErrorCode,
  type ListRevocationsRequest,
  type RevocationPage,
  type SigningKeySet,
} from '@cpc/contracts';
import {
  httpReadyCheck,
  ManagedProcess,
  serviceEntryPath,
  SERVICE_V8_FLAGS,
  waitForReady,
} from '@cpc/platform-launcher';
import { answerAsNestService, type FakeServiceAnswer, FakeServiceError, findFreePort } from '@cpc/testing';
import jwt from 'jsonwebtoken';
import { loadApiGatewayConfig } from '../api-gateway.config.js';
import { createApiGatewayApp } from '../create-api-gateway-app.js';

// The console's static files are no part of these tests, and @fastify/static needs require(esm), which Jest's module
// system lacks (serve-console.ts): a plugin that serves nothing stands in for it. Everything else is the real gateway.
jest.unstable_mockModule('@fastify/static', () => ({ default: () => Promise.resolve() }));

export const TEST_ISSUER = 'charging-platform-core';
export const TEST_AUDIENCE = 'charging-platform-core-api';

/** One RSA signing key of the auth-service stand-in. */
export interface TestSigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKeyPem: string;
}

export function testSigningKey(kid = `k-${randomUUID()}`): TestSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }) as string };
}

/** An access token as auth-service issues it (RS256, kid, issuer, audience), with `claims` overriding. */
export function signAccessToken(key: TestSigningKey, claims: Partial<AccessTokenClaims> = {}): string {
  const iat = Math.floor(Date.now() / 1000);
  const payload: AccessTokenClaims = {
    iss: TEST_ISSUER,
    aud: TEST_AUDIENCE,
    sub: randomUUID(),
    sub_type: 'user',
    tenant: 'acme',
    tenant_uuid: '11111111-1111-4111-8111-111111111111',
    scope: 'asset:locations:read asset:locations:list asset:locations:create',
    iat,
    exp: iat + 3600,
    jti: randomUUID(),
    ...claims,
  };
  return jwt.sign(payload, key.privateKey, { algorithm: 'RS256', keyid: key.kid });
}

/**
 * auth-service's side for api-gateway, on a connection of its own: the signing keys (changeable, fetches counted) and
 * the revocations (none unless set; requests counted).
 */
export class AuthServiceStandIn {
  keys: TestSigningKey[] = [];
  revocations: RevocationPage['revocations'] = [];
  signingKeyFetches = 0;
  /** While set, listSigningKeys answers only when it resolves: a slow auth-service. */
  holdSigningKeys: Promise<void> | undefined;
  /** While true, listSigningKeys answers service_unavailable: an auth-service that cannot read its keys. */
  failSigningKeys = false;
  private readonly subscriptions: Subscription[] = [];

  constructor(private readonly connection: NatsConnection) {}

  async start(): Promise<void> {
    this.subscriptions.push(
      answerAsNestService<object>(this.connection, AuthSubjects.listSigningKeys, async () => {
        this.signingKeyFetches += 1;
        if (this.holdSigningKeys) await this.holdSigningKeys;
        if (this.failSigningKeys)
          return new FakeServiceError(ErrorCode.ServiceUnavailable, 'keys unavailable');
        const set: SigningKeySet = {
          keys: this.keys.map(({ kid, publicKeyPem }) => ({ kid, alg: 'RS256', publicKeyPem })),
        };
        return set;
      }),
      answerAsNestService<ListRevocationsRequest>(
        this.connection,
        AuthSubjects.listRevocations,
        (request) => ({
          revocations: request.afterSequence === 0 ? this.revocations : [],
          asOf: new Date().toISOString(),
          lastSequence: 1,
          more: false,
        }),
      ),
    );
    await this.connection.flush();
  }

  stop(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }
}

/** A stand-in for any other service's subject (the api-gateway's tenant-scoped envelope), requests recorded. */
export function standInFor<Request>(
  connection: NatsConnection,
  subject: string,
  answer: (request: Request) => FakeServiceAnswer,
): { requests: Request[]; subscription: Subscription } {
  const requests: Request[] = [];
  const subscription = answerAsNestService<Request>(connection, subject, (request) => {
    requests.push(request);
    return answer(request);
  });
  return { requests, subscription };
}

export interface RunningApiGateway {
  app: NestFastifyApplication;
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * One api-gateway replica in this process, as main.ts starts it, on port 0 and the given NATS; `env` adds to (or
 * overrides) the test defaults. Several may share one NATS server: replicas behind one ingress.
 */
export async function startApiGatewayReplica(
  natsUrl: string,
  env: Record<string, string> = {},
): Promise<RunningApiGateway> {
  const config = loadApiGatewayConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    NATS_URL: natsUrl,
    API_PORT: '0',
    HEALTH_PORT: '0',
    NATS_REQUEST_TIMEOUT_MS: '2000',
    ...env,
  });
  const app = await createApiGatewayApp(config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, port, close: () => app.close() };
}

/**
 * A second replica in a process of its own (the compiled gateway from dist/, `npm run build`): two gateways in one
 * process share passport's strategy registry, so the last one's caches would answer for both.
 */
export async function startApiGatewayProcess(
  natsUrl: string,
  env: Record<string, string> = {},
): Promise<RunningApiGateway> {
  const [port, healthPort] = [await findFreePort(), await findFreePort()];
  const child = new ManagedProcess({
    name: 'api-gateway (replica)',
    command: process.execPath,
    args: [...SERVICE_V8_FLAGS['api-gateway'], serviceEntryPath(process.cwd(), 'api-gateway', 'main')],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      NATS_URL: natsUrl,
      API_PORT: String(port),
      HEALTH_PORT: String(healthPort),
      NATS_REQUEST_TIMEOUT_MS: '2000',
      ...env,
    },
  });
  child.start();
  const url = `http://127.0.0.1:${port}`;
  await waitForReady(child, httpReadyCheck(`${url}/health/ready`), { timeoutMs: 30_000, target: url });
  const close = async () => {
    await child.stop();
  };
  return { app: undefined as unknown as NestFastifyApplication, url, port, close };
}

/** A plain connection of the test's own (stand-ins, broadcasts). */
export function testConnection(natsUrl: string): Promise<NatsConnection> {
  return connect({ servers: natsUrl });
}

/**
 * The process's Date at `now` and under the test's control (jest.setSystemTime), before a gateway starts: its caches
 * and limiters keep the Date.now they were built with. Timers stay real, so NATS and HTTP run as ever.
 */
export function controlTheDate(now: number): void {
  jest.useFakeTimers({
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
    now,
  });
}
