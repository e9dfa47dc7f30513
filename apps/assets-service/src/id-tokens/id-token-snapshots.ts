import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  type AuthorizationToken,
  AuthorizationSubjects,
  type IdTokenRevisionsRequest,
  type IdTokenRevisionsResponse,
  type IdTokenSnapshotPage,
  type IdTokenSnapshotRequest,
  type IdTokensChangedBroadcast,
  isUuid,
} from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { describeError, ValidationFailedError } from '@cpc/errors';
import { NATS_CONNECTION } from '@cpc/nats';
import { DataSource } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import { type IdTokenWrite, IdTokensService } from './id-tokens.service.js';
import {
  type AuthorizationTokenRow,
  authorizationTokensByUuid,
  idTokenRevisions,
  idTokenSnapshotPage,
} from './id-tokens.repository.js';

/** The smallest uuid: the first page starts after it. */
const BEFORE_EVERY_UUID = '00000000-0000-0000-0000-000000000000';

export function toAuthorizationToken(row: AuthorizationTokenRow): AuthorizationToken {
  return {
    uuid: row.uuid,
    idToken: row.id_token,
    type: row.type,
    status: row.status,
    expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
    group:
      row.group_id_token && row.group_type ? { idToken: row.group_id_token, type: row.group_type } : null,
    allowedLocationUuids: row.allowed_location_uuids,
  };
}

/**
 * What the ocpp-gateways' token caches read: a tenant's tokens page by page with its revision, the revisions of
 * several tenants, and, after each committed write, the change itself as a broadcast every gateway instance hears.
 */
@Injectable()
export class IdTokenSnapshots implements OnModuleInit {
  private readonly logger = new Logger(IdTokenSnapshots.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: IdTokensService,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) private readonly tuning: AssetsServiceTuning,
  ) {}

  onModuleInit(): void {
    this.tokens.onWrite((write) => {
      this.broadcast(write).catch((error: unknown) => {
        // The gateways' revision check catches the change instead.
        this.logger.warn(`could not announce an id token change: ${describeError(error)}`);
      });
    });
  }

  async page(request: IdTokenSnapshotRequest): Promise<IdTokenSnapshotPage> {
    if (!isUuid(request?.tenantUuid) || (request.afterUuid !== null && !isUuid(request.afterUuid))) {
      throw ValidationFailedError.single(
        'tenantUuid',
        'invalid_format',
        'tenantUuid and afterUuid must be UUIDs',
      );
    }
    const limit = Math.min(Math.max(1, Number(request.limit) || 1), this.tuning.idTokenSnapshotMaxPageSize);
    const rows = await runStatement(this.dataSource, idTokenSnapshotPage, {
      tenantUuid: request.tenantUuid,
      afterUuid: request.afterUuid ?? BEFORE_EVERY_UUID,
      limit,
    });
    const tokens = rows
      .filter((row) => row.uuid !== null)
      .map((row) => toAuthorizationToken(row as AuthorizationTokenRow));
    return {
      revision: Number(rows[0]?.revision ?? 0),
      tokens,
      nextAfterUuid: tokens.length === limit ? tokens[tokens.length - 1].uuid : null,
    };
  }

  async revisions(request: IdTokenRevisionsRequest): Promise<IdTokenRevisionsResponse> {
    const tenantUuids = Array.isArray(request?.tenantUuids) ? request.tenantUuids.filter(isUuid) : [];
    if (tenantUuids.length !== (request?.tenantUuids?.length ?? 0)) {
      throw ValidationFailedError.single('tenantUuids', 'invalid_format', 'tenantUuids must be UUIDs');
    }
    const rows = await runStatement(this.dataSource, idTokenRevisions, { tenantUuids });
    return { revisions: rows.map((row) => Number(row.revision)) };
  }

  private async broadcast(write: IdTokenWrite): Promise<void> {
    const reload = write.uuids.length > this.tuning.idTokenChangeMaxTokens;
    const changed =
      write.deleted || reload
        ? []
        : (
            await runStatement(this.dataSource, authorizationTokensByUuid, {
              tenantUuid: write.tenantUuid,
              uuids: write.uuids,
            })
          ).map(toAuthorizationToken);
    const message: IdTokensChangedBroadcast = {
      tenantUuid: write.tenantUuid,
      revision: write.revision,
      changed,
      deletedUuids: write.deleted ? write.uuids : [],
      reload,
    };
    this.nats.publish(AuthorizationSubjects.idTokensChanged, JSON.stringify(message));
  }
}
