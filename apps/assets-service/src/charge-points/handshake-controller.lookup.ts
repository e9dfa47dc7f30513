import { Inject, Injectable } from '@nestjs/common';
import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import { runStatement } from '@cpc/database';
import { DataSource } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import {
  findHandshakeControllers,
  type HandshakeController,
} from './charge-point-authentication.repository.js';

export interface HandshakeLookup {
  tenantUuid: string;
  identity: string;
}

type LookupCall = GroupedCall<HandshakeLookup, HandshakeController | null>;

/**
 * Finds the controller each handshake names. Every charge point's (re)connect asks; in a reconnect storm thousands a
 * second, and one statement each spent more of PostgreSQL's time planning than running. The look-ups that arrive
 * while `handshakeLookupsInFlight` statements run share the next one (a lone look-up goes out at once). Every input
 * is one the statement takes (ChargePointAuthenticationService checks the tenant uuid and the identity first), so a
 * group fails only as a whole, when the database does.
 */
@Injectable()
export class HandshakeControllerLookup {
  private readonly lookups: GroupedCalls<HandshakeLookup, HandshakeController | null>;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN)
    tuning: Pick<AssetsServiceTuning, 'handshakeLookupsInFlight' | 'handshakeLookupBatchSize'>,
  ) {
    this.lookups = new GroupedCalls((group) => this.findGroup(group), {
      maxInFlight: tuning.handshakeLookupsInFlight,
      maxGroup: tuning.handshakeLookupBatchSize,
    });
  }

  /** The identity must not hold NUL (ChargePointAuthenticationService refuses such a request before). */
  find(lookup: HandshakeLookup): Promise<HandshakeController | null> {
    return this.lookups.call(lookup);
  }

  private async findGroup(group: LookupCall[]): Promise<void> {
    const rows = await runStatement(this.dataSource, findHandshakeControllers, {
      tenantUuids: group.map((call) => call.item.tenantUuid),
      identities: group.map((call) => call.item.identity),
    });
    const found = new Map(rows.map(({ position, ...controller }) => [Number(position) - 1, controller]));
    group.forEach((call, index) => call.resolve(found.get(index) ?? null));
  }
}
