import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { OcppCallReply } from '@cpc/contracts';
import { NATS_CONNECTION } from '@cpc/nats';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';

/** Private to the gateway instances. */
const DELIVERIES_BUCKET = 'ocpp_command_deliveries';

export interface DeliveryRecord {
  controllerUuid: string;
  gatewayInstance: string;
  claimedAt: string;
  /** Set once the call is settled. */
  reply?: OcppCallReply;
  sentAt?: string | null;
}

export type ClaimResult = { claimed: true; revision: number } | { claimed: false; existing: DeliveryRecord };

/**
 * The gateway's memory of which commands it delivered, shared by all instances (NATS KV, key = command uuid). A
 * command is claimed with an atomic create before its call goes out, so of two attempts to deliver the same command
 * (on any instances, before or after a restart) exactly one sends it: at most once, whatever happens around it.
 */
@Injectable()
export class CommandDeliveryLedger implements OnModuleInit {
  private bucket: KV | undefined;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.bucket = await new Kvm(this.nats).create(DELIVERIES_BUCKET, {
      history: 1,
      ttl: this.config.tuning.deliveryRecordTtlMs,
    });
  }

  async claim(commandUuid: string, record: DeliveryRecord): Promise<ClaimResult> {
    const bucket = this.requireBucket();
    try {
      return { claimed: true, revision: await bucket.create(commandUuid, JSON.stringify(record)) };
    } catch (createError) {
      const existing = await this.find(commandUuid);
      if (existing) return { claimed: false, existing };
      throw createError;
    }
  }

  async find(commandUuid: string): Promise<DeliveryRecord | undefined> {
    const entry = await this.requireBucket().get(commandUuid);
    return entry?.operation === 'PUT' ? entry.json<DeliveryRecord>() : undefined;
  }

  async settle(commandUuid: string, record: DeliveryRecord): Promise<void> {
    await this.requireBucket().put(commandUuid, JSON.stringify(record));
  }

  /** Gives a claim back when nothing was sent after all (the charge point stayed busy), so a retry may send it. */
  async release(commandUuid: string, revision: number): Promise<void> {
    await this.requireBucket().delete(commandUuid, { previousSeq: revision });
  }

  private requireBucket(): KV {
    if (!this.bucket) throw new Error('command delivery bucket not open yet');
    return this.bucket;
  }
}
