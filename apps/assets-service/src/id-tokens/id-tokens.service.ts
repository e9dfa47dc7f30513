import { Inject, Injectable } from '@nestjs/common';
import {
  AuthorizationSubjects,
  type CursorAssetPage,
  type CreateIdTokenPayload,
  HAS_DEPENDENTS_ERROR_KEY,
  type IdTokenFilter,
  type IdTokenImportCommitPayload,
  type IdTokenImportPartPayload,
  type IdTokenImportResult,
  type IdTokenKey,
  type IdTokenSortField,
  type IdTokenView,
  type CursorListAssetsPayload,
  MAX_ID_TOKENS_PER_IMPORT,
  type UpdateIdTokenPayload,
} from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import { DataSource, type EntityManager, In } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import { IdTokenEntity } from '../entities/index.js';
import { markAssetInsert } from '../shared/asset-inserts.repository.js';
import { ASSET_SORT_COLUMNS, listPage, type SortField } from '../shared/asset-listing.js';
import { isForeignKeyViolation } from '@cpc/database';
import { resolveIdTokens } from './id-token-references.js';
import { toIdTokenView } from './id-token-view.js';
import {
  deleteAbandonedImportParts,
  type IdTokenWriteRow,
  insertIdTokens,
  insertImportPart,
  raiseIdTokenRevision,
  takeImportParts,
  upsertIdTokens,
} from './id-tokens.repository.js';

const SORT_COLUMNS: Record<IdTokenSortField, SortField> = {
  created_at: ASSET_SORT_COLUMNS.created_at,
  id_token: { column: 'id_token', type: 'text' },
};

function alreadyExists(): ValidationFailedError {
  return ValidationFailedError.single(
    'id_token',
    'already_exists',
    'the tenant has a token with this id_token and type (values compare case-insensitively)',
  );
}

/** What a write changed, for whoever follows the tenant's tokens: the revision it produced and the tokens. */
export interface IdTokenWrite {
  tenantUuid: string;
  revision: number;
  uuids: string[];
  deleted: boolean;
}

/** Drivers' id tokens of a tenant: every write raises the tenant's revision in its transaction. */
@Injectable()
export class IdTokensService {
  private readonly listeners: ((write: IdTokenWrite) => void)[] = [];

  constructor(
    private readonly dataSource: DataSource,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) private readonly tuning: AssetsServiceTuning,
  ) {}

  /** Called after each committed write. */
  onWrite(listener: (write: IdTokenWrite) => void): void {
    this.listeners.push(listener);
  }

  async create(tenantUuid: string, payload: CreateIdTokenPayload): Promise<IdTokenView> {
    const write = await this.dataSource.transaction(async (manager) => {
      const revision = await this.raiseRevision(manager, tenantUuid);
      const { rows, known } = await resolveIdTokens(manager, tenantUuid, [payload], (_index, field) => field);
      if (known.size > 0) throw alreadyExists();
      const written = await this.write(manager, tenantUuid, revision, rows, 'insert');
      if (written.uuids.length === 0) throw alreadyExists();
      return written;
    });
    this.announce(write);
    return this.get(tenantUuid, write.uuids[0]);
  }

  async get(tenantUuid: string, uuid: string): Promise<IdTokenView> {
    const token = await this.dataSource.getRepository(IdTokenEntity).findOneBy({ tenantUuid, uuid });
    if (!token) throw new NotFoundError('id token');
    return (await this.toViews(tenantUuid, [token]))[0];
  }

  list(
    tenantUuid: string,
    request: CursorListAssetsPayload<IdTokenFilter, IdTokenSortField>,
  ): Promise<CursorAssetPage<IdTokenView>> {
    const { filter } = request;
    const query = this.dataSource
      .getRepository(IdTokenEntity)
      .createQueryBuilder('token')
      .where('token.tenantUuid = :tenantUuid', { tenantUuid });
    if (filter.id_token !== undefined)
      query.andWhere('lower(token.idToken) = lower(:idToken)', { idToken: filter.id_token });
    if (filter.type !== undefined) query.andWhere('token.type = :type', { type: filter.type });
    if (filter.status !== undefined) query.andWhere('token.status = :status', { status: filter.status });
    if (filter.contract_reference !== undefined) {
      query.andWhere('token.contractReference = :contractReference', {
        contractReference: filter.contract_reference,
      });
    }
    if (filter.group_id_token !== undefined)
      query.andWhere('token.groupUuid = :groupUuid', { groupUuid: filter.group_id_token });
    if (filter.location_uuid !== undefined) {
      query.andWhere(
        '(cardinality(token.allowedLocationUuids) = 0 OR :locationUuid = ANY(token.allowedLocationUuids))',
        { locationUuid: filter.location_uuid },
      );
    }
    return listPage(query, request, SORT_COLUMNS, (rows) => this.toViews(tenantUuid, rows), {
      list: AuthorizationSubjects.listIdTokens,
      tenantUuid,
      table: 'assets.id_tokens',
    });
  }

  async update(tenantUuid: string, uuid: string, changes: UpdateIdTokenPayload): Promise<IdTokenView> {
    const write = await this.dataSource.transaction(async (manager) => {
      const revision = await this.raiseRevision(manager, tenantUuid);
      const token = await manager.findOne(IdTokenEntity, {
        where: { tenantUuid, uuid },
        lock: { mode: 'pessimistic_write' },
      });
      if (!token) throw new NotFoundError('id token');
      const [current] = await this.toViews(tenantUuid, [token], manager);
      const merged: CreateIdTokenPayload = {
        id_token: current.id_token,
        type: current.type,
        status: changes.status ?? current.status,
        expires_at: changes.expires_at !== undefined ? changes.expires_at : current.expires_at,
        group_id_token:
          changes.group_id_token !== undefined ? changes.group_id_token : keyOnly(current.group_id_token),
        contract_reference:
          changes.contract_reference !== undefined ? changes.contract_reference : current.contract_reference,
        allowed_location_uuids: changes.allowed_location_uuids ?? current.allowed_location_uuids,
      };
      // Locations the token has already are not checked again: one deleted since must not block every change.
      const kept = changes.allowed_location_uuids === undefined ? current.allowed_location_uuids : [];
      const { rows } = await resolveIdTokens(manager, tenantUuid, [merged], (_index, field) => field, {
        checkedAlready: new Set(kept),
      });
      return this.write(manager, tenantUuid, revision, rows, 'upsert');
    });
    this.announce(write);
    return this.get(tenantUuid, uuid);
  }

  /** Refused while other tokens name it as their group. */
  async delete(tenantUuid: string, uuid: string): Promise<void> {
    try {
      const write = await this.dataSource.transaction(async (manager) => {
        const revision = await this.raiseRevision(manager, tenantUuid);
        const result = await manager.delete(IdTokenEntity, { tenantUuid, uuid });
        if (!result.affected) throw new NotFoundError('id token');
        return { tenantUuid, revision, uuids: [uuid], deleted: true };
      });
      this.announce(write);
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw ValidationFailedError.single(
          'uuid',
          HAS_DEPENDENTS_ERROR_KEY,
          'other id tokens name this one as their group; change or delete them first',
        );
      }
      throw error;
    }
  }

  /** Keeps one part of an import aside; invisible until the commit. */
  async importPart(tenantUuid: string, part: IdTokenImportPartPayload): Promise<void> {
    await runStatement(this.dataSource, insertImportPart, {
      importUuid: part.importUuid,
      tenantUuid,
      firstIndex: part.offset,
      tokens: JSON.stringify(part.tokens),
      now: new Date(),
    });
  }

  /**
   * Writes every token of the import in one transaction, or none: a token with a known value and type replaces it.
   * Each problem is reported as `id_tokens[<index>].<field>`.
   */
  async importCommit(tenantUuid: string, commit: IdTokenImportCommitPayload): Promise<IdTokenImportResult> {
    const { importUuid } = commit;
    let result: { write: IdTokenWrite; created: number };
    try {
      result = await this.dataSource.transaction(async (manager) => {
        const revision = await this.raiseRevision(manager, tenantUuid);
        const parts = await runStatement(manager, takeImportParts, { importUuid, tenantUuid });
        const tokens = parts
          .sort((a, b) => a.first_index - b.first_index)
          .flatMap((part) => part.tokens as CreateIdTokenPayload[]);
        if (tokens.length !== commit.total || tokens.length > MAX_ID_TOKENS_PER_IMPORT) {
          throw ValidationFailedError.single(
            'id_tokens',
            'invalid_length',
            `the import arrived with ${tokens.length} of ${commit.total} tokens; send it again`,
          );
        }
        const { rows } = await resolveIdTokens(
          manager,
          tenantUuid,
          tokens,
          (index, field) => `id_tokens[${index}].${field}`,
        );
        const write = await this.write(manager, tenantUuid, revision, rows, 'upsert');
        return { write, created: write.created };
      });
    } finally {
      // Parts of a failed commit are dropped with it; so are imports abandoned long ago.
      await runStatement(this.dataSource, takeImportParts, { importUuid, tenantUuid });
      await runStatement(this.dataSource, deleteAbandonedImportParts, {
        before: new Date(Date.now() - this.tuning.idTokenImportPartMaxAgeMs),
      });
    }
    this.announce(result.write);
    return { created: result.created, updated: result.write.uuids.length - result.created };
  }

  /**
   * Writes the rows at `revision`, which the transaction raised first: every writer of a tenant's tokens queues on
   * the revision's row lock before it reads or locks a token, so writers never deadlock and each reads what the one
   * before it committed.
   */
  private async write(
    manager: EntityManager,
    tenantUuid: string,
    revision: number,
    rows: IdTokenWriteRow[],
    mode: 'insert' | 'upsert',
  ): Promise<IdTokenWrite & { created: number }> {
    await markAssetInsert(manager, 'assets.id_tokens');
    const written = await runStatement(manager, mode === 'insert' ? insertIdTokens : upsertIdTokens, {
      tenantUuid,
      revision: String(revision),
      tokens: JSON.stringify(rows),
    });
    return {
      tenantUuid,
      revision,
      uuids: written.map((row) => row.uuid),
      deleted: false,
      created: written.filter((row) => row.created).length,
    };
  }

  private async raiseRevision(manager: EntityManager, tenantUuid: string): Promise<number> {
    const [row] = await runStatement(manager, raiseIdTokenRevision, { tenantUuid });
    return Number(row.revision);
  }

  private announce(write: IdTokenWrite): void {
    for (const listener of this.listeners) listener(write);
  }

  private async toViews(
    tenantUuid: string,
    tokens: IdTokenEntity[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<IdTokenView[]> {
    const groupUuids = [...new Set(tokens.flatMap((token) => (token.groupUuid ? [token.groupUuid] : [])))];
    const groups =
      groupUuids.length === 0
        ? []
        : await manager.findBy(IdTokenEntity, { tenantUuid, uuid: In(groupUuids) });
    const byUuid = new Map(
      groups.map((group) => [group.uuid, { uuid: group.uuid, id_token: group.idToken, type: group.type }]),
    );
    return tokens.map((token) =>
      toIdTokenView(token, token.groupUuid ? byUuid.get(token.groupUuid) : undefined),
    );
  }
}

function keyOnly(group: IdTokenView['group_id_token']): IdTokenKey | null {
  return group ? { id_token: group.id_token, type: group.type } : null;
}
