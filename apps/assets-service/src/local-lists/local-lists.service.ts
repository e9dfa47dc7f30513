import { Inject, Injectable } from '@nestjs/common';
import {
  type AuthorizationToken,
  isUuid,
  type LocalListPage,
  type LocalListPageRequest,
} from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import { toAuthorizationToken } from '../id-tokens/id-token-snapshots.js';
import { authorizationTokensByUuid } from '../id-tokens/id-tokens.repository.js';
import { entryOf, forOcpp16, type LocalListEntry, planLocalList } from './local-list-plan.js';
import {
  controllerLocation,
  deleteAbandonedLocalListUpdates,
  existingIdTokens,
  type LocalListUpdateRow,
  preparedLocalListUpdate,
  recordedLocalList,
  saveLocalListUpdate,
  settleLocalListUpdate,
  tokensAllowedAt,
} from './local-lists.repository.js';

const UPDATE_TYPES = ['full', 'differential'];
const PROTOCOLS = ['ocpp1.6', 'ocpp2.0.1'];

/** An entry as the gateway's list builder takes it (AuthorizationToken; where it is allowed plays no part). */
const asToken = (entry: LocalListEntry): AuthorizationToken => ({ ...entry, allowedLocationUuids: [] });

/**
 * Local authorization lists per controller (docs/authorization.md#local-authorization-lists): prepares the update a
 * send_local_list delivers (the version the controller holds + 1; a full update with every token, a differential one
 * with what changed since the list it accepted last), serves it page by page, and records it as the controller's list
 * when the charge point answers Accepted.
 */
@Injectable()
export class LocalListsService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) private readonly tuning: AssetsServiceTuning,
  ) {}

  async page(request: LocalListPageRequest): Promise<LocalListPage> {
    checkRequest(request);
    const offset = Math.max(0, Math.floor(Number(request.offset) || 0));
    const limit = Math.min(Math.max(1, Number(request.limit) || 1), this.tuning.localListMaxPageSize);
    const [prepared] = await runStatement(this.dataSource, preparedLocalListUpdate, request);
    const update =
      prepared &&
      prepared.update_type === request.updateType &&
      prepared.controller_uuid === request.controllerUuid
        ? prepared
        : offset === 0
          ? await this.prepare(request)
          : undefined;
    if (!update) throw new NotFoundError('local list update');
    const total = update.tokens.length + update.removals.length;
    const tokens = update.tokens.slice(offset, offset + limit);
    const removalsFrom = Math.max(0, offset - update.tokens.length);
    const removals = update.removals.slice(removalsFrom, removalsFrom + limit - tokens.length);
    const next = offset + tokens.length + removals.length;
    return {
      listVersion: update.version,
      updateType: update.update_type,
      total,
      tokens: tokens.map(asToken),
      removals,
      nextOffset: next < total ? next : null,
    };
  }

  /** Which of the uuids are the tenant's tokens (another tenant's are not, as missing ones). */
  async exist(tenantUuid: string, uuids: string[]): Promise<boolean[]> {
    const list = Array.isArray(uuids) ? uuids : [];
    const valid = list.filter((uuid) => isUuid(uuid)).map((uuid) => uuid.toLowerCase());
    const found = new Set(
      valid.length === 0
        ? []
        : (await runStatement(this.dataSource, existingIdTokens, { tenantUuid, uuids: valid })).map(
            (row) => row.uuid,
          ),
    );
    return list.map((uuid) => isUuid(uuid) && found.has(uuid.toLowerCase()));
  }

  /**
   * Settles a command's update once the charge point answered: Accepted makes it the controller's list (when the
   * list it was prepared against is still the recorded one); any other answer drops it. A command without an update
   * (a redelivered event) changes nothing.
   */
  async answered(tenantUuid: string, commandUuid: string, accepted: boolean): Promise<void> {
    if (!isUuid(tenantUuid) || !isUuid(commandUuid)) return;
    await runStatement(this.dataSource, settleLocalListUpdate, {
      tenantUuid,
      commandUuid,
      accepted,
      now: new Date(),
    });
  }

  private async prepare(request: LocalListPageRequest): Promise<LocalListUpdateRow> {
    const { tenantUuid, controllerUuid } = request;
    const [controller] = await runStatement(this.dataSource, controllerLocation, {
      tenantUuid,
      controllerUuid,
    });
    if (!controller) throw new NotFoundError('controller');
    const rows =
      request.idTokenUuids === null
        ? await runStatement(this.dataSource, tokensAllowedAt, {
            tenantUuid,
            locationUuid: controller.location_uuid,
          })
        : await runStatement(this.dataSource, authorizationTokensByUuid, {
            tenantUuid,
            uuids: request.idTokenUuids,
          });
    const entries = rows.map((row) => entryOf(toAuthorizationToken(row)));
    const wanted =
      request.protocol === 'ocpp1.6'
        ? entries.map(forOcpp16).filter((entry): entry is LocalListEntry => entry !== undefined)
        : entries;
    const [recorded] = await runStatement(this.dataSource, recordedLocalList, { tenantUuid, controllerUuid });
    const plan = planLocalList(request.updateType, recorded?.entries ?? null, wanted);
    const now = new Date();
    await runStatement(this.dataSource, deleteAbandonedLocalListUpdates, {
      before: new Date(now.getTime() - this.tuning.localListUpdateMaxAgeMs),
    });
    const baseVersion = recorded?.version ?? 0;
    await runStatement(this.dataSource, saveLocalListUpdate, {
      commandUuid: request.commandUuid,
      tenantUuid,
      controllerUuid,
      updateType: request.updateType,
      baseVersion,
      tokens: JSON.stringify(plan.tokens),
      removals: JSON.stringify(plan.removals),
      entries: JSON.stringify(plan.entries),
      now,
    });
    return {
      controller_uuid: controllerUuid,
      update_type: request.updateType,
      version: baseVersion + 1,
      tokens: plan.tokens,
      removals: plan.removals,
    };
  }
}

function checkRequest(request: LocalListPageRequest): void {
  const valid =
    isUuid(request?.tenantUuid) &&
    isUuid(request.controllerUuid) &&
    isUuid(request.commandUuid) &&
    UPDATE_TYPES.includes(request.updateType) &&
    PROTOCOLS.includes(request.protocol) &&
    (request.idTokenUuids === null ||
      (Array.isArray(request.idTokenUuids) && request.idTokenUuids.every((uuid) => isUuid(uuid))));
  if (!valid) {
    throw ValidationFailedError.single(
      'request',
      'invalid_format',
      'tenantUuid, controllerUuid, commandUuid must be UUIDs, updateType full or differential, idTokenUuids UUIDs or null',
    );
  }
}
