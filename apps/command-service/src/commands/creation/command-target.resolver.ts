import { Injectable } from '@nestjs/common';
import {
  type AssetPage,
  AssetsSubjects,
  ErrorCode,
  type ListAssetsPayload,
  type OcppCallTarget,
  type PlugFilter,
  type PlugSortField,
  type PlugView,
  type Principal,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { DomainError, ValidationFailedError } from '@cpc/errors';
import type { TargetType } from '@cpc/ocpp-commands';
import { ServiceClient } from '@cpc/nats';
import { runStatement } from '@cpc/database';
import { DataSource } from 'typeorm';
import { findChargingSessionTarget } from '../../repositories/charging-sessions.repository.js';
import { ControllerLookups } from './controller-lookups.js';

/** Where a command goes: the charge point, and the target as the gateway needs it to build the OCPP call. */
export interface ResolvedCommandTarget {
  controllerUuid: string;
  target: OcppCallTarget;
}

/** 422 key on `target_uuid`: the session's transaction id belongs to a later session of its charge point now. */
export const TRANSACTION_ID_REUSED_ERROR_KEY = 'transaction_id_reused';

/** Plugs per EVSE looked at when numbering a 2.0.1 connector; stations have one to three. */
const MAX_PLUGS_PER_EVSE = 50;

/**
 * Finds a command's target for the caller's tenant: controllers and plugs in assets-service, charging sessions in
 * the local table. Null when it does not exist for this tenant; a session whose transaction id the charge point has
 * used again since is a 422; assets-service being unreachable throws service_unavailable.
 */
@Injectable()
export class CommandTargetResolver {
  constructor(
    private readonly services: ServiceClient,
    private readonly controllers: ControllerLookups,
    private readonly dataSource: DataSource,
  ) {}

  async resolve(
    principal: Principal,
    targetType: TargetType,
    targetUuid: string,
  ): Promise<ResolvedCommandTarget | null> {
    switch (targetType) {
      case 'controller': {
        const exists = await this.controllers.exists(principal.tenantUuid, targetUuid);
        return exists ? { controllerUuid: targetUuid, target: { targetType: 'controller' } } : null;
      }
      case 'connector': {
        const plug = await this.asset<PlugView>(AssetsSubjects.getPlug, principal, targetUuid);
        if (!plug) return null;
        return {
          controllerUuid: plug.controller_uuid,
          target: {
            targetType: 'connector',
            connectorId: plug.connector_id,
            evseId: plug.evse_id,
            evseConnectorId: await this.rankWithinEvse(principal, plug),
          },
        };
      }
      case 'charging_session':
        return this.session(principal.tenantUuid, targetUuid);
    }
  }

  private async asset<T>(subject: string, principal: Principal, uuid: string): Promise<T | null> {
    try {
      return await this.services.request<T, TenantScopedRequest<{ uuid: string }>>(subject, {
        principal,
        payload: { uuid },
      });
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.NotFound) return null;
      throw error;
    }
  }

  /** OCPP 2.0.1 numbers connectors within their EVSE: the plug's rank by connector id (as assets-service reads them). */
  private async rankWithinEvse(principal: Principal, plug: PlugView): Promise<number> {
    const page = await this.services.request<
      AssetPage<PlugView>,
      TenantScopedRequest<ListAssetsPayload<PlugFilter, PlugSortField>>
    >(AssetsSubjects.listPlugs, {
      principal,
      payload: {
        page: 1,
        limit: MAX_PLUGS_PER_EVSE,
        orderBy: [{ field: 'connector_id', direction: 'asc' }],
        filter: { controller_uuid: plug.controller_uuid, evse_id: plug.evse_id },
      },
    });
    const index = page.items.findIndex((item) => item.uuid === plug.uuid);
    return index === -1 ? 1 : index + 1;
  }

  private async session(tenantUuid: string, uuid: string): Promise<ResolvedCommandTarget | null> {
    const [session] = await runStatement(this.dataSource, findChargingSessionTarget, { tenantUuid, uuid });
    if (!session) return null;
    // Commands for a session name its transaction id, which now names the later session's transaction: a remote
    // stop would end that one.
    if (session.superseded) {
      throw ValidationFailedError.single(
        'target_uuid',
        TRANSACTION_ID_REUSED_ERROR_KEY,
        `charging session ${uuid} has ended and its charge point has used its transaction id ` +
          `${session.ocpp_transaction_id} again since: a command for it would reach the later session`,
      );
    }
    return {
      controllerUuid: session.controller_uuid,
      target: {
        targetType: 'charging_session',
        transactionId: session.ocpp_transaction_id,
        connectorId: session.connector_id,
        evseId: session.evse_id,
      },
    };
  }
}
