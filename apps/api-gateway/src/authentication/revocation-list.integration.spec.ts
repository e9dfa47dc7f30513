import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import {
  type AccountsRevokedEvent,
  AuthSubjects,
  type ListRevocationsRequest,
  type RevocationPage,
} from '@cpc/contracts';
import { ServiceClient } from '@cpc/nats';
import { eventually, type NatsTestServer, serveAsNestService, startNatsTestServer } from '@cpc/testing';
import { RevocationList, RevocationStateUnavailableError } from './revocation-list.js';
import { UnauthorizedError } from './unauthorized.error.js';

/** A real NATS server; auth-service's side of auth.revocations.list.v1 played by a stand-in on its own connection. */
describe('RevocationList', () => {
  const startSeconds = 1_800_000_000;
  let nats: NatsTestServer;
  let connection: NatsConnection;
  let serviceClient: ServiceClient;
  let nowMs: number;
  let requests: ListRevocationsRequest[];
  let pages: Map<number, RevocationPage>;
  let authService: Subscription | undefined;
  let list: RevocationList;

  const serveRevocations = () =>
    serveAsNestService<ListRevocationsRequest>(connection, AuthSubjects.listRevocations, (request) => {
      const body = request as unknown as ListRevocationsRequest;
      requests.push(body);
      return (
        pages.get(body.afterSequence) ?? {
          revocations: [],
          asOf,
          lastSequence: body.afterSequence,
          more: false,
        }
      );
    });
  const asOf = new Date(startSeconds * 1000).toISOString();

  beforeAll(async () => {
    nats = await startNatsTestServer();
    connection = await connect({ servers: nats.url });
    serviceClient = new ServiceClient(
      ClientProxyFactory.create({ transport: Transport.NATS, options: { servers: [nats.url] } }),
      1000,
    );
  });

  afterAll(async () => {
    await serviceClient.onApplicationShutdown();
    await connection.close();
    await nats.stop();
  });

  beforeEach(async () => {
    nowMs = startSeconds * 1000;
    requests = [];
    pages = new Map();
    authService = serveRevocations();
    await connection.flush();
    list = new RevocationList(serviceClient, connection, {
      pollIntervalMs: 3_600_000,
      maxStalenessMs: 60_000,
      now: () => nowMs,
    });
  });

  afterEach(() => {
    list.onApplicationShutdown();
    authService?.unsubscribe();
  });

  it('reads every page of a poll, refuses tokens issued before their subject’s time, and re-reads a margin', async () => {
    pages.set(0, {
      revocations: [{ subject: 'a', notBefore: startSeconds - 10 }],
      asOf,
      lastSequence: 7,
      more: true,
    });
    pages.set(7, {
      revocations: [{ subject: 'b', notBefore: startSeconds }],
      asOf,
      lastSequence: 9,
      more: false,
    });

    await list.sync();

    await expect(list.check('a', startSeconds - 11)).rejects.toThrow(UnauthorizedError);
    await expect(list.check('a', startSeconds - 10)).resolves.toBeUndefined();
    await expect(list.check('b', startSeconds - 1)).rejects.toThrow('access token revoked');
    await expect(list.check('c', 0)).resolves.toBeUndefined();
    pages.clear();
    await list.sync();
    expect(requests).toEqual([
      { changedSince: null, afterSequence: 0 },
      { changedSince: null, afterSequence: 7 },
      { changedSince: new Date((startSeconds - 60) * 1000).toISOString(), afterSequence: 0 },
    ]);
  });

  it('waits at start-up for a first read when auth-service answers late, so its first requests get no 503', async () => {
    authService?.unsubscribe();
    await connection.flush();
    // Nobody answering yet is a warning (a service starting), not an error line that alarms whoever reads the logs.
    const errors = jest.spyOn(Logger.prototype, 'error');
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    const bootstrapped = list.onApplicationBootstrap();
    await new Promise((resolve) => setTimeout(resolve, 600));
    authService = serveRevocations();
    await connection.flush();
    await bootstrapped;
    expect(errors).not.toHaveBeenCalled();
    expect(warnings).toHaveBeenCalledWith(`nobody answers ${AuthSubjects.listRevocations} now`);
    errors.mockRestore();
    warnings.mockRestore();
    expect(requests.length).toBeGreaterThan(0);
    await expect(list.check('f', startSeconds)).resolves.toBeUndefined();
  });

  it('applies an announcement at once, without waiting for a poll', async () => {
    await list.onApplicationBootstrap();
    const event: AccountsRevokedEvent = { revocations: [{ subject: 'd', notBefore: startSeconds }] };
    connection.publish(AuthSubjects.accountsRevoked, JSON.stringify(event));
    await eventually(
      () =>
        list.check('d', startSeconds - 1).then(
          () => 'accepted',
          (error: Error) => error.message,
        ),
      (outcome) => outcome === 'access token revoked',
    );
  });

  it('refuses every token with 503 once no poll succeeded for the staleness bound, and recovers', async () => {
    await expect(list.check('e', startSeconds)).resolves.toBeUndefined();
    authService?.unsubscribe();
    await connection.flush();

    nowMs += 60_000;
    await expect(list.check('e', startSeconds)).resolves.toBeUndefined();
    nowMs += 1;
    await expect(list.check('e', startSeconds)).rejects.toThrow(RevocationStateUnavailableError);

    authService = serveRevocations();
    await connection.flush();
    nowMs += 1_000;
    await expect(list.check('e', startSeconds)).resolves.toBeUndefined();
  });
});
