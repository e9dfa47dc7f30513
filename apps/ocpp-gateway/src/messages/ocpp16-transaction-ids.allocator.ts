import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { NATS_CONNECTION } from '@cpc/nats';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';

/** Private to the gateway: the last transaction id per controller and its recent StartTransactions. */
const TRANSACTION_IDS_BUCKET = 'ocpp16_transaction_ids';
const EPOCH_2020_MS = Date.UTC(2020, 0, 1);

interface TransactionIdState {
  lastId: number;
  recentStarts: { fingerprint: string; transactionId: number }[];
}

/**
 * OCPP 1.6 leaves it to the central system to number transactions (an integer the charge point echoes in
 * StopTransaction and MeterValues). The gateway has no database, so the numbers live in a NATS KV entry per
 * controller, advanced with compare-and-set so two instances never hand out the same one. A number is never below
 * the seconds since 2020: should the bucket ever be lost, new numbers still do not repeat old ones (and stay far below
 * 2^31 for decades). A StartTransaction the charge point repeats because it missed our answer gets the same number.
 */
@Injectable()
export class Ocpp16TransactionIdAllocator implements OnModuleInit {
  private bucket: KV | undefined;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.bucket = await new Kvm(this.nats).create(TRANSACTION_IDS_BUCKET, { history: 1 });
  }

  /** `fingerprint` identifies one StartTransaction (connector, id tag, timestamp, meter start). */
  async allocate(controllerUuid: string, fingerprint: string): Promise<number> {
    const bucket = this.bucket;
    if (!bucket) throw new Error('transaction id bucket not open yet');
    let lastError: unknown;
    for (let attempt = 0; attempt < this.config.tuning.transactionIdMaxAttempts; attempt++) {
      const entry = await bucket.get(controllerUuid);
      const state = entry?.operation === 'PUT' ? entry.json<TransactionIdState>() : undefined;
      const repeated = state?.recentStarts.find((start) => start.fingerprint === fingerprint);
      if (repeated) return repeated.transactionId;
      const transactionId = Math.max(
        (state?.lastId ?? 0) + 1,
        Math.floor((Date.now() - EPOCH_2020_MS) / 1000),
      );
      const next: TransactionIdState = {
        lastId: transactionId,
        recentStarts: [{ fingerprint, transactionId }, ...(state?.recentStarts ?? [])].slice(
          0,
          this.config.tuning.rememberedTransactionStarts,
        ),
      };
      try {
        if (entry && state) await bucket.update(controllerUuid, JSON.stringify(next), entry.revision);
        else await bucket.create(controllerUuid, JSON.stringify(next));
        return transactionId;
      } catch (error) {
        // Another instance advanced the entry between our read and write: read again.
        lastError = error;
      }
    }
    throw new Error(`could not allocate a transaction id for ${controllerUuid}: ${String(lastError)}`);
  }
}
