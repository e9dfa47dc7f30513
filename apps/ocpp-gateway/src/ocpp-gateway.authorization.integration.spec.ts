import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  type AuthorizationToken,
  AuthorizationSubjects,
  type IdTokenSnapshotRequest,
  type IdTokensChangedBroadcast,
} from '@cpc/contracts';
import { answerAsNestService, eventually, NO_ANSWER } from '@cpc/testing';
import {
  type ChargePoint,
  chargePoint,
  type FakeController,
  type GatewayTestRig,
  startGatewayTestRig,
} from './testing/ocpp-gateway-test-bed.js';

/** What the gateway's cache does when broadcasts are lost, reordered, or assets-service cannot be reached. */
describe('ocpp-gateway: the id token cache', () => {
  let rig: GatewayTestRig;
  let assets: NatsConnection;
  let controller: FakeController;
  let cp: ChargePoint;
  /** The fake assets-service's tokens of the tenant, at `revision`. */
  const state = { revision: 1, tokens: [] as AuthorizationToken[], answering: true, snapshots: 0 };

  const token = (idToken: string, status: AuthorizationToken['status'] = 'accepted'): AuthorizationToken => ({
    uuid: randomUUID(),
    idToken,
    type: 'iso14443',
    status,
    expiresAt: null,
    group: null,
    allowedLocationUuids: [],
  });
  const authorize = async (idTag: string) =>
    ((await cp.call('Authorize', { idTag })) as { idTagInfo: { status: string } }).idTagInfo.status;
  const broadcast = (change: Omit<IdTokensChangedBroadcast, 'tenantUuid' | 'reload'>) =>
    assets.publish(
      AuthorizationSubjects.idTokensChanged,
      JSON.stringify({ tenantUuid: controller.tenantUuid, reload: false, ...change }),
    );

  beforeAll(async () => {
    rig = await startGatewayTestRig({
      OCPP_GATEWAY_INSTANCE_ID: 'gw-authorization',
      // The tests poll with Authorize far more often than a charge point would.
      OCPP_INCOMING_CALL_BURST: '10000',
      OCPP_INCOMING_CALLS_PER_SECOND: '10000',
    });
    rig.services.authorizationModes.set('acme', 'strict');
    assets = await connect({ servers: rig.nats.url });
    answerAsNestService<IdTokenSnapshotRequest>(assets, AuthorizationSubjects.idTokenSnapshot, (request) => {
      if (!state.answering) return NO_ANSWER;
      state.snapshots += 1;
      const after = state.tokens.filter(
        (item) => request.afterUuid === null || item.uuid > request.afterUuid,
      );
      const sorted = after.sort((a, b) => a.uuid.localeCompare(b.uuid)).slice(0, request.limit);
      return {
        revision: state.revision,
        tokens: sorted,
        nextAfterUuid: sorted.length === request.limit ? sorted[sorted.length - 1].uuid : null,
      };
    });
    answerAsNestService(assets, AuthorizationSubjects.idTokenRevisions, () =>
      state.answering ? { revisions: [state.revision] } : NO_ANSWER,
    );
    await assets.flush();
    controller = rig.services.addController({
      tenantSlug: 'acme',
      identity: 'CP-AUTH',
      password: 'secret-password-1',
    });
    cp = chargePoint({ port: rig.gateway.ocppPort, controller, protocols: ['ocpp1.6'] });
  });

  afterAll(async () => {
    await cp?.close({ force: true });
    await assets?.close();
    await rig?.stop();
  });

  it('answers strict without tokens while assets-service cannot be reached, then loads them', async () => {
    state.tokens = [token('ALICE')];
    state.answering = false;
    await cp.connect();
    await expect(authorize('ALICE')).resolves.toBe('Invalid');
    state.answering = true;
    // The next load is tried idTokenLoadRetryMs after the failed one.
    await eventually(
      () => authorize('ALICE'),
      (status) => status === 'Accepted',
      { timeoutMs: 3000, intervalMs: 100 },
    );
  });

  it('answers from memory: many answers, one load', async () => {
    const loads = state.snapshots;
    for (let i = 0; i < 50; i += 1) await expect(authorize('alice')).resolves.toBe('Accepted');
    expect(state.snapshots).toBe(loads);
  });

  it('applies broadcasts in revision order, whatever order they arrive in', async () => {
    const bob = token('BOB');
    state.tokens.push(bob);
    const blockedBob = { ...bob, status: 'blocked' as const };
    state.tokens = state.tokens.map((item) => (item.uuid === bob.uuid ? blockedBob : item));
    state.revision = 3;
    broadcast({ revision: 3, changed: [blockedBob], deletedUuids: [] });
    broadcast({ revision: 2, changed: [bob], deletedUuids: [] });
    await eventually(
      () => authorize('BOB'),
      (status) => status === 'Blocked',
      { timeoutMs: 1000, intervalMs: 20 },
    );
  });

  it('loads the tenant again when a change broadcast was lost, within the bound', async () => {
    const loads = state.snapshots;
    state.tokens = state.tokens.map((item) =>
      item.idToken === 'ALICE' ? { ...item, status: 'blocked' } : item,
    );
    state.revision = 4;
    const changedAt = Date.now();
    await eventually(
      () => authorize('ALICE'),
      (status) => status === 'Blocked',
      { timeoutMs: 3000, intervalMs: 20 },
    );
    expect(Date.now() - changedAt).toBeLessThan(1000);
    expect(state.snapshots).toBe(loads + 1);
  });
});
