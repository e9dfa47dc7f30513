import { Inject, Injectable } from '@nestjs/common';
import {
  type AuthorizationToken,
  isUuid,
  type LocalListPage,
  type LocalListPageRequest,
} from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import { localListPartEnds, type LocalListMessageLimits } from '@cpc/ocpp-commands';
import { DataSource } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import { ControllerConfigurationService } from '../controller-configuration/controller-configuration.service.js';
import { toAuthorizationToken } from '../id-tokens/id-token-snapshots.js';
import { authorizationTokensByUuid } from '../id-tokens/id-tokens.repository.js';
import { entryOf, forOcpp16, listAfter, type LocalListEntry, planLocalList } from './local-list-plan.js';
import {
  controllerLocation,
  deleteAbandonedLocalListUpdates,
  deleteLocalListUpdate,
  existingIdTokens,
  lockedLocalListUpdate,
  type LocalListUpdateRow,
  preparedLocalListUpdate,
  recordedLocalList,
  recordLocalList,
  saveLocalListUpdate,
  tokensAllowedAt,
} from './local-lists.repository.js';

const UPDATE_TYPES = ['full', 'differential'];
const PROTOCOLS = ['ocpp1.6', 'ocpp2.0.1'];

/** An entry as the gateway's list builder takes it (AuthorizationToken; where it is allowed plays no part). */
const asToken = (entry: LocalListEntry): AuthorizationToken => ({ ...entry, allowedLocationUuids: [] });

/**
 * Local authorization lists per controller (docs/authorization.md#local-authorization-lists): prepares the update a
 * send_local_list delivers (the version the controller holds + 1; a full update with every token, a differential one
 * with what changed since the list it accepted last), cut into the parts the charge point takes in one SendLocalList,
 * serves it page by page, and records what the charge point accepted of it as the controller's list.
 */
@Injectable()
export class LocalListsService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) private readonly tuning: AssetsServiceTuning,
    private readonly configuration: ControllerConfigurationService,
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
      partEnds: partEndsOf(update),
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
   * Records what the charge point accepted of a command's update: the list its first `acceptedParts` parts leave
   * becomes the controller's list at the last accepted part's version (when the recorded list is the one the update
   * was prepared against or one its earlier parts left); `final` drops the update. A command without an update (a
   * repeated report, a redelivered event) changes nothing, and neither does a report of fewer parts than recorded.
   */
  async answered(
    tenantUuid: string,
    commandUuid: string,
    acceptedParts: number,
    final: boolean,
  ): Promise<void> {
    if (!isUuid(tenantUuid) || !isUuid(commandUuid)) return;
    await this.dataSource.transaction(async (manager) => {
      const [update] = await runStatement(manager, lockedLocalListUpdate, { tenantUuid, commandUuid });
      if (!update) return;
      const ends = partEndsOf(update);
      const parts = Math.min(Math.max(0, Math.floor(acceptedParts) || 0), ends.length);
      if (parts > 0) {
        const end = ends[parts - 1];
        const entries =
          parts === ends.length
            ? update.entries
            : listAfter(update.update_type, update.base_entries, update, end);
        await runStatement(manager, recordLocalList, {
          tenantUuid,
          controllerUuid: update.controller_uuid,
          baseVersion: update.base_version,
          version: update.base_version + parts,
          entries: JSON.stringify(entries),
          commandUuid,
          now: new Date(),
        });
      }
      if (final) await runStatement(manager, deleteLocalListUpdate, { tenantUuid, commandUuid });
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
    const partEnds = localListPartEnds(request.protocol, plan, await this.messageLimits(request));
    await runStatement(this.dataSource, saveLocalListUpdate, {
      commandUuid: request.commandUuid,
      tenantUuid,
      controllerUuid,
      updateType: request.updateType,
      baseVersion,
      tokens: JSON.stringify(plan.tokens),
      removals: JSON.stringify(plan.removals),
      entries: JSON.stringify(plan.entries),
      // Only a differential update's parts build on the list before it.
      baseEntries: request.updateType === 'differential' ? JSON.stringify(recorded?.entries ?? []) : null,
      partEnds,
      now,
    });
    return {
      controller_uuid: controllerUuid,
      update_type: request.updateType,
      version: baseVersion + 1,
      tokens: plan.tokens,
      removals: plan.removals,
      part_ends: partEnds,
    };
  }

  /**
   * How much one SendLocalList to the controller may carry: what its charge point reported (1.6
   * SendLocalListMaxLength; 2.0.1 LocalAuthListCtrlr.ItemsPerMessage and BytesPerMessage), else
   * localListItemsPerMessageDefault entries and no byte limit.
   */
  private async messageLimits(request: LocalListPageRequest): Promise<LocalListMessageLimits> {
    const reported = await this.configuration.settingLimits(request.tenantUuid, request.controllerUuid);
    const items =
      request.protocol === 'ocpp1.6'
        ? reported.sendLocalListMaxLength
        : reported.itemsPerMessageSendLocalList;
    return {
      itemsPerMessage: items ?? this.tuning.localListItemsPerMessageDefault,
      bytesPerMessage: request.protocol === 'ocpp1.6' ? null : reported.bytesPerMessageSendLocalList,
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

/** Where the update's parts end; an update prepared before updates went in parts has none recorded: one part. */
function partEndsOf(update: Pick<LocalListUpdateRow, 'part_ends' | 'tokens' | 'removals'>): number[] {
  return update.part_ends.length > 0 ? update.part_ends : [update.tokens.length + update.removals.length];
}
