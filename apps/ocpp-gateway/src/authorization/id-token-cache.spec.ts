import type { NatsConnection } from '@nats-io/transport-node';
import {
  type AuthorizationToken,
  AuthorizationSubjects,
  type IdTokenSnapshotPage,
  type IdTokensChangedBroadcast,
} from '@cpc/contracts';
import type { ServiceClient } from '@cpc/nats';
import { authorizationToken } from '@cpc/testing';
import { OCPP_GATEWAY_TUNING, type OcppGatewayConfig } from '../ocpp-gateway.config.js';
import { IdTokenCache } from './id-token-cache.js';

const TENANT = '11111111-1111-4111-8111-111111111111';

/** assets-service as the cache sees it: a revision, tokens, and snapshot reads that can be held back. */
class ScriptedAssets {
  revision = 1;
  tokens: AuthorizationToken[] = [];
  snapshotReads = 0;
  revisionChecks = 0;
  private held: (() => void)[] = [];
  holdSnapshots = false;

  readonly client = {
    request: async (subject: string): Promise<unknown> => {
      if (subject === AuthorizationSubjects.idTokenSnapshot) {
        this.snapshotReads += 1;
        // The snapshot is taken now, answered when released: a read that began before a later commit.
        const page: IdTokenSnapshotPage = {
          revision: this.revision,
          tokens: [...this.tokens],
          nextAfterUuid: null,
        };
        if (this.holdSnapshots) await new Promise<void>((resolve) => this.held.push(resolve));
        return page;
      }
      if (subject === AuthorizationSubjects.idTokenRevisions) {
        this.revisionChecks += 1;
        return { revisions: [this.revision] };
      }
      throw new Error(`unexpected request on ${subject}`);
    },
  } as unknown as ServiceClient;

  release(): void {
    this.holdSnapshots = false;
    for (const resolve of this.held.splice(0)) resolve();
  }
}

function cacheOver(assets: ScriptedAssets) {
  let deliver: (change: IdTokensChangedBroadcast) => void = () => undefined;
  const nats = {
    subscribe: (
      _subject: string,
      options: { callback: (error: unknown, message: { json: () => unknown }) => void },
    ) => {
      deliver = (change) => options.callback(null, { json: () => change });
    },
  } as unknown as NatsConnection;
  // The periodic check is driven by the test (sync()), not by a timer.
  const config = {
    tuning: { ...OCPP_GATEWAY_TUNING, idTokenSyncIntervalMs: 3_600_000 },
  } as unknown as OcppGatewayConfig;
  const cache = new IdTokenCache(assets.client, nats, config);
  cache.onModuleInit();
  const sync = () => (cache as unknown as { sync(): Promise<void> }).sync();
  return { cache, broadcast: (change: IdTokensChangedBroadcast) => deliver(change), sync };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the id token cache', () => {
  it('loads once more when a reload is announced while a load that read before it is still under way', async () => {
    const assets = new ScriptedAssets();
    const { cache, broadcast } = cacheOver(assets);
    assets.holdSnapshots = true;
    const first = cache.tokensOf(TENANT);
    await settle();

    // An import commits after the snapshot was read, and is announced before the read is answered.
    assets.revision = 2;
    assets.tokens = [authorizationToken({ idToken: 'IMPORTED' })];
    broadcast({ tenantUuid: TENANT, revision: 2, changed: [], deletedUuids: [], reload: true });
    assets.release();

    expect((await first)?.revision).toBe(1);
    await settle();
    await settle();
    const tokens = await cache.tokensOf(TENANT);
    expect(tokens?.revision).toBe(2);
    expect(tokens?.withValue('imported')).toHaveLength(1);
    expect(assets.snapshotReads).toBe(2);
  });

  it('does not reload for a reload it already contains', async () => {
    const assets = new ScriptedAssets();
    const { cache, broadcast } = cacheOver(assets);
    assets.revision = 3;
    await cache.tokensOf(TENANT);
    broadcast({ tenantUuid: TENANT, revision: 3, changed: [], deletedUuids: [], reload: true });
    await settle();
    expect(assets.snapshotReads).toBe(1);
  });

  it('does not reload a tenant whose changes keep arriving, one just behind each check', async () => {
    const assets = new ScriptedAssets();
    const { cache, broadcast, sync } = cacheOver(assets);
    await cache.tokensOf(TENANT);
    for (let revision = 2; revision <= 5; revision += 1) {
      // Committed and checked before its broadcast arrives; it arrives before the next check.
      assets.revision = revision;
      await sync();
      const token = authorizationToken({ idToken: `T${revision}`, uuid: crypto.randomUUID() });
      broadcast({ tenantUuid: TENANT, revision, changed: [token], deletedUuids: [], reload: false });
    }
    expect(assets.revisionChecks).toBe(4);
    expect(assets.snapshotReads).toBe(1);
    expect((await cache.tokensOf(TENANT))?.revision).toBe(5);
  });

  it('reloads a tenant still behind the revision seen at the previous check: a change was lost', async () => {
    const assets = new ScriptedAssets();
    const { cache, sync } = cacheOver(assets);
    await cache.tokensOf(TENANT);
    assets.revision = 2;
    assets.tokens = [authorizationToken({ idToken: 'LOST' })];
    await sync();
    expect(assets.snapshotReads).toBe(1);
    await sync();
    await settle();
    expect(assets.snapshotReads).toBe(2);
    expect((await cache.tokensOf(TENANT))?.withValue('lost')).toHaveLength(1);
  });
});
