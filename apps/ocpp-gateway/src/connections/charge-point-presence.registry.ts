import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  CHARGE_POINT_PRESENCE_BUCKET,
  type ChargePointPresence,
  GATEWAY_INSTANCES_BUCKET,
  type GatewayInstanceState,
} from '@cpc/contracts';
import { isKvConflict, NATS_CONNECTION } from '@cpc/nats';
import { eventIdFrom } from '../events/charge-point-event.publisher.js';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import type { ChargePointConnection } from './charge-point-connection.js';
import { mayReplace, type TakeoverCheck } from './security-profile-rank.js';

export interface StalePresence {
  presence: ChargePointPresence;
  revision: number;
}

/** Another instance found dead: stopped confirming itself, or already marked lost by someone's sweep. */
export interface DeadInstance {
  instanceId: string;
  revision: number;
  state: GatewayInstanceState;
}

/** What reclaim did with a connection's entry. */
export type Reclaimed =
  /** Another connection's entry is there, of `securityProfile`: the caller yields. */
  | { outcome: 'taken'; securityProfile?: number }
  /** It was as this instance last wrote it: updated, so a sweep's compare-and-delete of it fails from now on. */
  | { outcome: 'kept'; revision: number }
  /**
   * It was gone (or written by an earlier try whose answer was lost), or `displaced` a profile-0 connection's entry
   * that must not stand over this one's higher profile: written again.
   */
  | { outcome: 'restored'; revision: number; displaced?: boolean };

/**
 * The event id of a connection's disconnect, from the revision of its entry that it removes (undefined: never
 * written). A sweep of an entry left behind and the connection's own close announce the same disconnect, stored once;
 * a connection announced again after a sweep wrote its entry anew, so its close is not taken for a repeat of the
 * sweep's within JetStream's duplicate window.
 */
export function disconnectedEventId(connectionId: string, entryRevision: number | undefined): string {
  return entryRevision === undefined
    ? eventIdFrom(connectionId, 'disconnected')
    : eventIdFrom(connectionId, 'disconnected', entryRevision);
}

/** How often reclaim reads and writes again after a write lost to another one, before the next upkeep round retries. */
const RECLAIM_TRIES = 3;

/** Instance ids are free text in configuration; KV keys allow only a few characters. */
export function gatewayInstanceKey(instanceId: string): string {
  return Buffer.from(instanceId).toString('base64url');
}

function instanceIdOf(key: string): string {
  return Buffer.from(key, 'base64url').toString();
}

/**
 * The presence registry (NATS KV, see ChargePointPresence): one entry per connected controller, written once by the
 * instance holding the socket, and one state per gateway instance (GatewayInstanceState) that the instance confirms
 * every third of OCPP_PRESENCE_TTL_MS. A fleet of idle sockets costs one write per instance and round, not one per
 * socket; the entries are read in full only after an instance died (its entries are swept then).
 */
@Injectable()
export class ChargePointPresenceRegistry implements OnModuleInit {
  private entries: KV | undefined;
  private instances: KV | undefined;
  private readonly incarnation = randomUUID();
  private ownRevision = 0;
  /**
   * When a state of an earlier process under this instance id was found at start: its entries are swept once
   * OCPP_PRESENCE_TTL_MS has passed since then, the grace any dead instance gets.
   */
  private earlierIncarnationFoundAt: number | undefined;
  /** Connections whose entry could not be deleted on close (NATS away): retried each upkeep round. */
  private readonly unwithdrawn = new Map<string, ChargePointConnection>();

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const kvm = new Kvm(this.nats);
    this.entries = await kvm.create(CHARGE_POINT_PRESENCE_BUCKET, { history: 1 });
    this.instances = await kvm.create(GATEWAY_INSTANCES_BUCKET, { history: 1 });
    const earlier = await this.instances.get(gatewayInstanceKey(this.config.gatewayInstanceId));
    if (earlier?.operation === 'PUT') this.earlierIncarnationFoundAt = Date.now();
    await this.rejoin();
  }

  /** Confirms this instance is alive; false when someone marked it lost or removed it (it stood still too long). */
  async confirmAlive(): Promise<boolean> {
    try {
      this.ownRevision = await this.requireInstances().update(
        gatewayInstanceKey(this.config.gatewayInstanceId),
        this.ownState(),
        this.ownRevision,
      );
      return true;
    } catch {
      return false;
    }
  }

  /** Writes this instance's state afresh (after it was found lost); its connections must then be announced again. */
  async rejoin(): Promise<void> {
    this.ownRevision = await this.requireInstances().put(
      gatewayInstanceKey(this.config.gatewayInstanceId),
      this.ownState(),
    );
  }

  /**
   * Writes the connection's entry and returns its revision. The put is sent before the first await: writes made in
   * turn on this instance get revisions in that order. A profile-0 connection's entry is written only over what was
   * read (compare-and-set), never over a live entry of a higher profile: undefined then, the connection is outranked.
   */
  announce(connection: ChargePointConnection): Promise<number | undefined> {
    if (connection.chargePoint.securityProfile === 0) return this.claimWithoutCredentials(connection);
    return this.requireEntries().put(connection.controllerUuid, this.entryFor(connection));
  }

  /**
   * The first try goes by the revision the handshake's check read, so an ordinary reconnect costs no extra round trip;
   * a write between that read and this one (a higher-profile socket opening on another instance) fails it, and the
   * entry is read and judged again.
   */
  private async claimWithoutCredentials(connection: ChargePointConnection): Promise<number | undefined> {
    const entries = this.requireEntries();
    let seen = connection.chargePoint.presenceRevisionSeen;
    for (let tries = 1; ; tries++) {
      if (seen === undefined) {
        const check = await this.profileAbove(connection.controllerUuid, 0);
        if (check.outranking !== undefined) return undefined;
        seen = check.presenceRevision;
      }
      try {
        // Revision 0: only where the key was never written (a deleted one has its marker's revision).
        return await entries.put(connection.controllerUuid, this.entryFor(connection), {
          previousSeq: seen ?? 0,
        });
      } catch (error) {
        if (!isKvConflict(error) || tries >= RECLAIM_TRIES) throw error;
        seen = undefined;
      }
    }
  }

  /**
   * Writes again the entry of a connection whose presence may be lost, unless another connection's entry is there
   * ('taken': the caller yields), except one of profile 0 over a higher-profile connection (mayReplace: 'restored',
   * displaced). Only over what it read: created where there never was an entry, else updated at the revision read (the
   * entry still its own, the delete marker, or the displaced one), so a newer connection's entry written after the read
   * fails the write, and the next read finds it. 'kept' when the entry was the one this instance last wrote: no sweep
   * removed it, and none can from now on.
   */
  async reclaim(connection: ChargePointConnection): Promise<Reclaimed> {
    const entries = this.requireEntries();
    for (let tries = 1; ; tries++) {
      const found = await entries.get(connection.controllerUuid);
      const held = found?.operation === 'PUT' ? found.json<ChargePointPresence>() : undefined;
      const displaced = held !== undefined && held.connectionId !== connection.connectionId;
      if (displaced && mayReplace(held.securityProfile, connection.chargePoint.securityProfile)) {
        return { outcome: 'taken', securityProfile: held.securityProfile };
      }
      try {
        const entry = this.entryFor(connection);
        const revision = await (found
          ? entries.update(connection.controllerUuid, entry, found.revision)
          : entries.create(connection.controllerUuid, entry));
        if (displaced) return { outcome: 'restored', revision, displaced };
        const kept = held !== undefined && found?.revision === connection.presenceRevision;
        return { outcome: kept ? 'kept' : 'restored', revision };
      } catch (error) {
        if (!isKvConflict(error) || tries >= RECLAIM_TRIES) throw error;
      }
    }
  }

  /** The connection id the controller's entry names, if there is one. */
  async holder(controllerUuid: string): Promise<string | undefined> {
    return (await this.entry(controllerUuid))?.presence.connectionId;
  }

  /**
   * The security profile of the controller's entry when it is higher than `securityProfile` and its instance is alive,
   * and the revision of the key as read (0: never written). An entry of no higher profile is answered without reading
   * its instance's state: there is nothing to outrank, alive or not (a reconnect storm of profile-0 charge points reads
   * one key per handshake, not two).
   */
  async profileAbove(controllerUuid: string, securityProfile: number): Promise<Required<TakeoverCheck>> {
    const raw = await this.requireEntries().get(controllerUuid);
    const presenceRevision = raw?.revision ?? 0;
    const found = raw?.operation === 'PUT' ? raw.json<ChargePointPresence>() : undefined;
    const held = found?.securityProfile;
    if (!found || held === undefined || held <= securityProfile) {
      return { outranking: undefined, presenceRevision };
    }
    const state = await this.stateOf(found.gatewayInstance);
    const alive =
      state !== undefined && this.isAlive(state.state) && state.state.incarnation === found.incarnation;
    return { outranking: alive ? held : undefined, presenceRevision };
  }

  /** Deletes the entry only while it still names this connection: a newer socket elsewhere may own it already. */
  async withdraw(connection: ChargePointConnection): Promise<void> {
    try {
      const found = await this.entry(connection.controllerUuid);
      if (found && found.presence.connectionId === connection.connectionId) {
        // A concurrent write wins the compare-and-delete; that is the outcome we want.
        await this.requireEntries()
          .delete(connection.controllerUuid, { previousSeq: found.revision })
          .catch(() => undefined);
      }
      this.unwithdrawn.delete(connection.connectionId);
    } catch (error) {
      this.unwithdrawn.set(connection.connectionId, connection);
      throw error;
    }
  }

  /** Tries again to delete the entries of closed sockets whose withdrawal failed. */
  async withdrawLeftovers(): Promise<void> {
    for (const connection of [...this.unwithdrawn.values()]) await this.withdraw(connection);
  }

  /** The other instances that stopped confirming themselves, or were marked lost by a sweep that did not finish. */
  async deadInstances(): Promise<DeadInstance[]> {
    const instances = this.requireInstances();
    const dead: DeadInstance[] = [];
    for (const key of await this.keysOf(instances)) {
      const instanceId = instanceIdOf(key);
      if (instanceId === this.config.gatewayInstanceId) continue;
      const found = await this.stateOf(instanceId);
      if (found && !this.isAlive(found.state)) dead.push({ instanceId, ...found });
    }
    return dead;
  }

  /**
   * Marks a dead instance lost before its entries are swept, so that an instance that merely stood still learns it
   * at its next confirmation and announces its sockets again. False when it confirmed itself meanwhile.
   */
  async markLost(dead: DeadInstance): Promise<boolean> {
    if (dead.state.lost) return true;
    try {
      dead.revision = await this.requireInstances().update(
        gatewayInstanceKey(dead.instanceId),
        JSON.stringify({ ...dead.state, lost: true }),
        dead.revision,
      );
      return true;
    } catch {
      return false;
    }
  }

  /** Removes a lost instance's state once its entries are swept (unless it came back meanwhile). */
  async forget(dead: DeadInstance): Promise<void> {
    await this.requireInstances()
      .delete(gatewayInstanceKey(dead.instanceId), { previousSeq: dead.revision })
      .catch(() => undefined);
  }

  /**
   * Whether there is anything to sweep without reading every entry: an earlier process of this instance id, once its
   * grace is over. Its charge points that reconnect within OCPP_PRESENCE_TTL_MS (after a crash, all of them at once)
   * replace their entries and are never announced offline: no offline-online flap for the integrators, and no
   * disconnect to publish, write and deliver for each of them in the middle of the reconnect storm.
   */
  get sweepOwnEarlierIncarnation(): boolean {
    return (
      this.earlierIncarnationFoundAt !== undefined &&
      Date.now() - this.earlierIncarnationFoundAt >= this.config.presenceTtlMs
    );
  }

  /**
   * Entries of the given dead instances, of earlier incarnations of this one (once their grace is over), and of
   * instances without any state: reads the whole registry, so it runs only when there is something to sweep.
   */
  async entriesToSweep(deadInstanceIds: ReadonlySet<string>): Promise<StalePresence[]> {
    const entries = this.requireEntries();
    const known = new Set((await this.keysOf(this.requireInstances())).map(instanceIdOf));
    const sweepOwnEarlier = this.sweepOwnEarlierIncarnation;
    const stale: StalePresence[] = [];
    for (const key of await this.keysOf(entries)) {
      const found = await this.entry(key);
      if (!found) continue;
      const { gatewayInstance, incarnation } = found.presence;
      const ownEarlier =
        gatewayInstance === this.config.gatewayInstanceId && incarnation !== this.incarnation;
      const isStale = ownEarlier
        ? sweepOwnEarlier
        : deadInstanceIds.has(gatewayInstance) || !known.has(gatewayInstance);
      if (isStale) stale.push(found);
    }
    if (sweepOwnEarlier) this.earlierIncarnationFoundAt = undefined;
    return stale;
  }

  /** True for the one caller (of any instance) that removed it, while its instance is still not alive. */
  async removeStale(stale: StalePresence): Promise<boolean> {
    const { gatewayInstance, incarnation } = stale.presence;
    if (gatewayInstance !== this.config.gatewayInstanceId || incarnation === this.incarnation) {
      // The instance may have come back and announced its sockets again since it was found dead.
      const state = await this.stateOf(gatewayInstance);
      if (state && this.isAlive(state.state) && state.state.incarnation === incarnation) return false;
    }
    try {
      await this.requireEntries().delete(stale.presence.controllerUuid, { previousSeq: stale.revision });
      return true;
    } catch {
      return false;
    }
  }

  private isAlive(state: GatewayInstanceState): boolean {
    return !state.lost && Date.parse(state.refreshedAt) >= Date.now() - this.config.presenceTtlMs;
  }

  private async stateOf(
    instanceId: string,
  ): Promise<{ state: GatewayInstanceState; revision: number } | undefined> {
    const entry = await this.requireInstances().get(gatewayInstanceKey(instanceId));
    return entry?.operation === 'PUT'
      ? { state: entry.json<GatewayInstanceState>(), revision: entry.revision }
      : undefined;
  }

  private async entry(controllerUuid: string): Promise<StalePresence | undefined> {
    const entry = await this.requireEntries().get(controllerUuid);
    return entry?.operation === 'PUT'
      ? { presence: entry.json<ChargePointPresence>(), revision: entry.revision }
      : undefined;
  }

  private async keysOf(bucket: KV): Promise<string[]> {
    const keys: string[] = [];
    for await (const key of await bucket.keys()) keys.push(key);
    return keys;
  }

  private ownState(): string {
    const state: GatewayInstanceState = {
      incarnation: this.incarnation,
      refreshedAt: new Date().toISOString(),
    };
    return JSON.stringify(state);
  }

  private entryFor(connection: ChargePointConnection): string {
    const presence: ChargePointPresence = {
      controllerUuid: connection.controllerUuid,
      tenantUuid: connection.tenantUuid,
      ocppIdentity: connection.chargePoint.ocppIdentity,
      protocol: connection.protocol,
      securityProfile: connection.chargePoint.securityProfile,
      gatewayInstance: this.config.gatewayInstanceId,
      incarnation: this.incarnation,
      connectionId: connection.connectionId,
      connectedAt: connection.connectedAt,
    };
    return JSON.stringify(presence);
  }

  private requireEntries(): KV {
    if (!this.entries) throw new Error('presence bucket not open yet');
    return this.entries;
  }

  private requireInstances(): KV {
    if (!this.instances) throw new Error('gateway instances bucket not open yet');
    return this.instances;
  }
}
