import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  AssetsSubjects,
  type AuthenticateChargePointRequest,
  type AuthenticateChargePointResponse,
  type ControllerView,
  ErrorCode,
  type LocationView,
} from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import { DomainError } from '@cpc/errors';
import { ServiceTestRig } from '@cpc/testing';
import type { RunningService } from '@cpc/service-runtime';
import { loadAssetsServiceConfig } from '../assets-service.config.js';
import { createAssetsDataSource } from '../data-source.js';
import { startAssetsService } from '../start-assets-service.js';
import { hashOcppPassword } from './password-hash.js';

jest.setTimeout(60_000);

const PASSWORD = 'secret-password-123';
const MAX_FAILURES = 10;
const MAX_FAILURES_PER_IDENTITY = 25;
const tenant = randomUUID();

function serviceEnv(natsUrl: string, databaseUrl: string): Record<string, string> {
  return {
    NATS_URL: natsUrl,
    DATABASE_URL: databaseUrl,
    HEALTH_PORT: '0',
    LOG_LEVEL: 'warn',
    OCPP_PASSWORD_SCRYPT_LOG2_N: '10',
    OCPP_HANDSHAKE_MAX_FAILURES: String(MAX_FAILURES),
    OCPP_HANDSHAKE_MAX_FAILURES_PER_IDENTITY: String(MAX_FAILURES_PER_IDENTITY),
    OCPP_PASSWORD_MAX_QUEUED_CHECKS: '1000',
  };
}

let rig: ServiceTestRig;
/** A second assets-service on the same database and NATS: another replica. */
let replica: RunningService;
let database: pg.Client;

beforeAll(async () => {
  rig = await ServiceTestRig.start({
    migrate: (databaseUrl) => migrateServiceSchema(createAssetsDataSource(databaseUrl)),
    start: ({ natsUrl, databaseUrl }) =>
      startAssetsService(loadAssetsServiceConfig(serviceEnv(natsUrl, databaseUrl))),
  });
  replica = await startAssetsService(loadAssetsServiceConfig(serviceEnv(rig.nats.url, rig.database.url)));
  database = new pg.Client({ connectionString: rig.database.url });
  await database.connect();
});

afterAll(async () => {
  await database?.end();
  await replica?.app.close();
  await rig?.stop();
});

let location: LocationView | undefined;
async function createController(identity: string): Promise<ControllerView> {
  location ??= await rig.call<LocationView>(AssetsSubjects.createLocation, { name: 'Depot' }, tenant);
  return rig.call<ControllerView>(
    AssetsSubjects.createController,
    { location_uuid: location.uuid, name: identity, ocpp_identity: identity, ocpp_password: PASSWORD },
    tenant,
  );
}

/** The outcome of one authenticate request: 'ok' or the error code. */
async function authenticate(identity: string, password: string, remoteAddress: string): Promise<string> {
  const request: AuthenticateChargePointRequest = {
    tenantUuid: tenant,
    ocppIdentity: identity,
    password,
    remoteAddress,
  };
  try {
    await rig.client.request(AssetsSubjects.authenticateChargePoint, request);
    return 'ok';
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

describe('charge point authentication: failures counted before the password check', () => {
  it('counts 200 parallel wrong attempts as 200: at most the limit are checked, the rest rate limited', async () => {
    await createController('CP-PARALLEL');
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, index) => authenticate('CP-PARALLEL', `wrong-${index}`, '127.0.0.2')),
    );
    expect(tally(outcomes)).toEqual({
      [ErrorCode.InvalidCredentials]: MAX_FAILURES,
      [ErrorCode.RateLimited]: 200 - MAX_FAILURES,
    });
    // Even the right password from that address waits for the window to pass.
    await expect(authenticate('CP-PARALLEL', PASSWORD, '127.0.0.2')).resolves.toBe(ErrorCode.RateLimited);
  });

  it('keeps another address of the same identity working while one is limited', async () => {
    await createController('CP-AIMED');
    for (let attempt = 0; attempt < MAX_FAILURES; attempt++)
      await expect(authenticate('CP-AIMED', 'wrong-password-0000', '127.0.0.2')).resolves.toBe(
        ErrorCode.InvalidCredentials,
      );
    await expect(authenticate('CP-AIMED', PASSWORD, '127.0.0.2')).resolves.toBe(ErrorCode.RateLimited);
    await expect(authenticate('CP-AIMED', PASSWORD, '127.0.0.3')).resolves.toBe('ok');
  });

  it('counts identity variants the look-up treats as one identity in one counter', async () => {
    await createController('CP-CASE');
    const variants = ['CP-CASE', 'cp-case', 'Cp-CaSe', 'CP-case'];
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < MAX_FAILURES + 4; attempt++)
      outcomes.push(
        await authenticate(variants[attempt % variants.length], 'wrong-password-0000', '127.0.0.4'),
      );
    expect(tally(outcomes)).toEqual({
      [ErrorCode.InvalidCredentials]: MAX_FAILURES,
      [ErrorCode.RateLimited]: 4,
    });
  });

  it('limits an identity failing from many addresses at the higher per-identity threshold', async () => {
    await createController('CP-SPREAD');
    const outcomes: string[] = [];
    // Three addresses at ten each: the per-identity allowance (25) runs out in the third.
    for (const address of ['10.9.0.1', '10.9.0.2', '10.9.0.3'])
      for (let attempt = 0; attempt < MAX_FAILURES; attempt++)
        outcomes.push(await authenticate('CP-SPREAD', 'wrong-password-0000', address));
    expect(tally(outcomes)).toEqual({
      [ErrorCode.InvalidCredentials]: MAX_FAILURES_PER_IDENTITY,
      [ErrorCode.RateLimited]: 3 * MAX_FAILURES - MAX_FAILURES_PER_IDENTITY,
    });
    await expect(authenticate('CP-SPREAD', PASSWORD, '10.9.0.4')).resolves.toBe(ErrorCode.RateLimited);
  });

  it('shares the counts between replicas: both answer the subject, and together they allow the limit once', async () => {
    await createController('CP-REPLICAS');
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, index) => authenticate('CP-REPLICAS', `wrong-${index}`, '127.0.0.5')),
    );
    expect(tally(outcomes)[ErrorCode.InvalidCredentials]).toBe(MAX_FAILURES);
    const { rows } = await database.query<{ failures: number }>(
      `SELECT failures FROM assets.charge_point_handshake_failures WHERE counter_key = $1`,
      [`pair:${tenant}/cp-replicas@127.0.0.5`],
    );
    expect(rows).toEqual([{ failures: MAX_FAILURES }]);
  });

  it('forgives the failures of an address once it gets the password right', async () => {
    await createController('CP-FORGIVEN');
    for (let attempt = 0; attempt < MAX_FAILURES - 1; attempt++)
      await authenticate('CP-FORGIVEN', 'wrong-password-0000', '127.0.0.6');
    await expect(authenticate('CP-FORGIVEN', PASSWORD, '127.0.0.6')).resolves.toBe('ok');
    for (let attempt = 0; attempt < MAX_FAILURES - 1; attempt++)
      await expect(authenticate('CP-FORGIVEN', 'wrong-password-0000', '127.0.0.6')).resolves.toBe(
        ErrorCode.InvalidCredentials,
      );
  });

  it('rehashes a password hashed with older parameters on the next successful handshake', async () => {
    const controller = await createController('CP-REHASH');
    const old = await hashOcppPassword(PASSWORD, { N: 2048, r: 8, p: 1 });
    await database.query(`UPDATE assets.controllers SET ocpp_password_hash = $1 WHERE uuid = $2`, [
      old,
      controller.uuid,
    ]);
    const storedHash = async () =>
      (
        await database.query<{ hash: string }>(
          `SELECT ocpp_password_hash AS hash FROM assets.controllers WHERE uuid = $1`,
          [controller.uuid],
        )
      ).rows[0].hash;
    await expect(authenticate('CP-REHASH', 'wrong-password-0000', '127.0.0.7')).resolves.toBe(
      ErrorCode.InvalidCredentials,
    );
    expect(await storedHash()).toBe(old);
    await expect(authenticate('CP-REHASH', PASSWORD, '127.0.0.7')).resolves.toBe('ok');
    const upgraded = await storedHash();
    expect(upgraded).toMatch(/^scrypt\$1024\$8\$1\$/);
    await expect(authenticate('CP-REHASH', PASSWORD, '127.0.0.7')).resolves.toBe('ok');
    expect(await storedHash()).toBe(upgraded);
  });
});

describe('charge point authentication: bounded password checks', () => {
  let small: ServiceTestRig;

  beforeAll(async () => {
    small = await ServiceTestRig.start({
      migrate: (databaseUrl) => migrateServiceSchema(createAssetsDataSource(databaseUrl)),
      start: ({ natsUrl, databaseUrl }) =>
        startAssetsService(
          loadAssetsServiceConfig({
            ...serviceEnv(natsUrl, databaseUrl),
            OCPP_PASSWORD_SCRYPT_LOG2_N: '14',
            OCPP_PASSWORD_MAX_CONCURRENT_CHECKS: '1',
            OCPP_PASSWORD_MAX_QUEUED_CHECKS: '2',
            OCPP_HANDSHAKE_MAX_FAILURES: '1000',
          }),
        ),
    });
  });

  afterAll(() => small?.stop());

  it('lets charge points reconnect with their verified passwords without another scrypt check, so a reconnect storm does not queue', async () => {
    const depot = await small.call<LocationView>(AssetsSubjects.createLocation, { name: 'Depot' }, tenant);
    const identities = Array.from({ length: 30 }, (_, index) => `CP-STORM-${index}`);
    const controllers: ControllerView[] = [];
    for (const identity of identities)
      controllers.push(
        await small.call<ControllerView>(
          AssetsSubjects.createController,
          { location_uuid: depot.uuid, name: identity, ocpp_identity: identity, ocpp_password: PASSWORD },
          tenant,
        ),
      );
    const attempt = (identity: string, password: string) =>
      small.client
        .request(AssetsSubjects.authenticateChargePoint, {
          tenantUuid: tenant,
          ocppIdentity: identity,
          password,
          remoteAddress: '127.0.0.9',
        })
        .then(
          () => 'ok',
          (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
        );
    for (const identity of identities) await expect(attempt(identity, PASSWORD)).resolves.toBe('ok');
    // One check at a time and at most two waiting: 30 at once would mostly be refused without the remembered passwords.
    const reconnects = await Promise.all(identities.map((identity) => attempt(identity, PASSWORD)));
    expect(tally(reconnects)).toEqual({ ok: 30 });
    // A wrong password gains nothing from it.
    await expect(attempt(identities[0], 'wrong-password-0000')).resolves.toBe(ErrorCode.InvalidCredentials);
    // A new password (a new stored hash) takes effect at once: the remembered one no longer opens.
    await small.call(
      AssetsSubjects.updateController,
      { uuid: controllers[0].uuid, changes: { ocpp_password: 'another-password-456' } },
      tenant,
    );
    await expect(attempt(identities[0], PASSWORD)).resolves.toBe(ErrorCode.InvalidCredentials);
    await expect(attempt(identities[0], 'another-password-456')).resolves.toBe('ok');
    // Such a reconnect takes no failure slot and gives none back: the address's failure before it stays counted.
    await expect(attempt(identities[1], 'wrong-password-0000')).resolves.toBe(ErrorCode.InvalidCredentials);
    const counters = new pg.Client({ connectionString: small.database.url });
    await counters.connect();
    const failures = async () =>
      (
        await counters.query<{ counter_key: string; failures: number }>(
          `SELECT counter_key, failures FROM assets.charge_point_handshake_failures
            WHERE counter_key LIKE $1 ORDER BY counter_key`,
          ['%/cp-storm-1@%'],
        )
      ).rows;
    try {
      const before = await failures();
      expect(before).toEqual([{ counter_key: `pair:${tenant}/cp-storm-1@127.0.0.9`, failures: 1 }]);
      expect(tally(await Promise.all([1, 2, 3].map(() => attempt(identities[1], PASSWORD))))).toEqual({
        ok: 3,
      });
      expect(await failures()).toEqual(before);
    } finally {
      await counters.end();
    }
  });

  it('refuses checks beyond the running and queued ones at once, unknown identities included, without counting them', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        try {
          await small.client.request(AssetsSubjects.authenticateChargePoint, {
            tenantUuid: tenant,
            ocppIdentity: `UNKNOWN-${index % 2}`,
            password: 'wrong-password-0000',
            remoteAddress: '127.0.0.8',
          });
          return 'ok';
        } catch (error) {
          return error instanceof DomainError ? error.code : String(error);
        }
      }),
    );
    const counts = tally(outcomes);
    expect(counts[ErrorCode.ServiceUnavailable]).toBeGreaterThan(0);
    expect(counts[ErrorCode.InvalidCredentials]).toBeGreaterThanOrEqual(3);
    expect(counts[ErrorCode.ServiceUnavailable] + counts[ErrorCode.InvalidCredentials]).toBe(40);
    // Only the attempts whose password was checked count as failures.
    const client = new pg.Client({ connectionString: small.database.url });
    await client.connect();
    const { rows } = await client.query<{ total: number }>(
      `SELECT sum(failures)::int AS total FROM assets.charge_point_handshake_failures
        WHERE counter_key LIKE 'pair:%/unknown-%'`,
    );
    await client.end();
    expect(rows[0].total).toBe(counts[ErrorCode.InvalidCredentials]);
  });
});

describe('charge point authentication: controller look-ups of handshakes arriving together', () => {
  it('answers each of many parallel handshakes with its own controller, or none', async () => {
    const controllers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => createController(`CP-TOGETHER-${index}`)),
    );
    const ask = (identity: string) =>
      rig.client
        .request<AuthenticateChargePointResponse, AuthenticateChargePointRequest>(
          AssetsSubjects.authenticateChargePoint,
          { tenantUuid: tenant, ocppIdentity: identity, password: PASSWORD, remoteAddress: '10.8.0.1' },
        )
        .then(
          (answer) => answer.controllerUuid,
          (error: unknown) => (error instanceof DomainError ? error.code : 'failed'),
        );
    // Known identities in other cases, unknown ones and one PostgreSQL's text cannot hold, all at once.
    const identities = controllers.flatMap((controller, index) => [
      index % 2 === 0 ? controller.ocpp_identity.toLowerCase() : controller.ocpp_identity,
      `CP-NOBODY-${index}`,
    ]);
    identities.push('CP-TOGETHER-\u00001');
    const answers = await Promise.all(identities.map(ask));
    expect(answers).toEqual([
      ...controllers.flatMap((controller) => [controller.uuid, ErrorCode.InvalidCredentials]),
      ErrorCode.InvalidCredentials,
    ]);
  });
});
