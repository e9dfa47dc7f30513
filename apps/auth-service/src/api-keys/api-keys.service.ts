import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type {
  AdminPage,
  ApiKeyView,
  CreateApiKeyPayload,
  CreatedApiKeyView,
  ListApiKeysPayload,
  UpdateApiKeyPayload,
} from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import type { EntityManager, Repository } from 'typeorm';
import { AdminChanges } from '../admin/admin-changes.service.js';
import { adminListPage, containing } from '../admin/admin-listing.js';
import type { AdminScope } from '../admin/admin-scope.js';
import { lockedRow } from '../admin/locked-row.js';
import { SecretHasher } from '../credentials/secret-hasher.js';
import { RoleEntity } from '../roles/role.entity.js';
import { RolesService } from '../roles/roles.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { tenantsOfPublicKey } from './api-keys.repository.js';

export type { ApiKeyView } from '@cpc/contracts';

const toApiKeyView = (key: ApiKeyEntity, role: string): ApiKeyView => ({
  uuid: key.uuid,
  name: key.name,
  public_key: key.publicKey,
  role,
  revoked: key.revokedAt !== null,
  created_at: key.createdAt.toISOString(),
});

function validName(name: unknown): string {
  if (typeof name !== 'string' || !/^[\w .-]{1,100}$/.test(name))
    throw ValidationFailedError.single('name', 'invalid_format', 'name must be 1 to 100 word characters');
  return name;
}

@Injectable()
export class ApiKeysService {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly apiKeys: Repository<ApiKeyEntity>,
    private readonly tenants: TenantsService,
    private readonly roles: RolesService,
    private readonly hasher: SecretHasher,
    private readonly admin: AdminChanges,
  ) {}

  /** The CLI's apikey:create. */
  async create(tenantSlug: string, roleName: string, name?: string): Promise<CreatedApiKeyView> {
    return this.createIn(await this.admin.cliScope(tenantSlug), { role: roleName, name });
  }

  /** The CLI's apikey:list: every key of the tenant, revoked ones included. */
  async list(tenantSlug: string): Promise<ApiKeyView[]> {
    const tenant = await this.tenants.getBySlug(tenantSlug);
    const keys = await this.apiKeys.find({ where: { tenantUuid: tenant.uuid }, order: { createdAt: 'ASC' } });
    return this.toViews(tenant.uuid, keys);
  }

  findForLogin(tenantUuid: string, publicKey: string): Promise<ApiKeyEntity | null> {
    return this.apiKeys.findOneBy({ tenantUuid, publicKey });
  }

  /**
   * The slug of the one tenant holding the public key, for a `client_credentials` request that names no tenant; null
   * when no tenant or more than one holds it (the request must name its tenant then).
   */
  async tenantSlugOf(publicKey: string): Promise<string | null> {
    const rows = await runStatement(this.apiKeys.manager, tenantsOfPublicKey, { publicKey });
    return rows.length === 1 ? rows[0].slug : null;
  }

  findByUuid(uuid: string): Promise<ApiKeyEntity | null> {
    return this.apiKeys.findOneBy({ uuid });
  }

  /** The CLI's apikey:revoke and apikey:set-role. */
  async update(
    tenantSlug: string,
    publicKey: string,
    change: { revoked?: boolean; roleName?: string },
  ): Promise<ApiKeyView> {
    const scope = await this.admin.cliScope(tenantSlug);
    const apiKey = await this.findForLogin(scope.tenantUuid, publicKey);
    if (!apiKey) throw new NotFoundError(`API key ${publicKey}`);
    const view =
      change.roleName === undefined
        ? undefined
        : await this.updateIn(scope, apiKey.uuid, { role: change.roleName });
    return change.revoked ? this.revokeIn(scope, apiKey.uuid) : view!;
  }

  /** The private key is returned here once and never again: only its hash is kept. */
  async createIn(scope: AdminScope, input: CreateApiKeyPayload): Promise<CreatedApiKeyView> {
    const publicKey = `pk_${randomBytes(12).toString('hex')}`;
    const name = input.name === undefined ? publicKey : validName(input.name);
    const privateKey = `sk_${randomBytes(32).toString('base64url')}`;
    const secretHash = await this.hasher.hash(privateKey);
    const view = await this.admin.run(scope, async (manager) => {
      const role = await this.roles.toGive(manager, scope, input.role);
      const apiKey = manager.create(ApiKeyEntity, {
        uuid: randomUUID(),
        tenantUuid: scope.tenantUuid,
        name,
        publicKey,
        secretHash,
        roleUuid: role.uuid,
        revokedAt: null,
      });
      const after = toApiKeyView(await manager.save(apiKey), role.name);
      return {
        result: after,
        audit: [
          {
            kind: 'api_key.created',
            target: { type: 'api_key', uuid: apiKey.uuid },
            changedFields: ['name', 'role', 'private_key'],
            before: null,
            after,
          },
        ],
      };
    });
    return { ...view, private_key: privateKey };
  }

  async page(tenantUuid: string, request: ListApiKeysPayload): Promise<AdminPage<ApiKeyView>> {
    const query = this.apiKeys
      .createQueryBuilder('key')
      .where('key.tenantUuid = :tenantUuid', { tenantUuid });
    const { name, role, revoked } = request.filter ?? {};
    if (name !== undefined) query.andWhere('key.name ILIKE :name', { name: containing(name) });
    if (role !== undefined)
      query.andWhere(
        'key.roleUuid IN (SELECT uuid FROM auth.roles WHERE tenant_uuid = :tenantUuid AND name = :role)',
        { role },
      );
    if (revoked !== undefined) query.andWhere(`key.revokedAt IS ${revoked ? 'NOT ' : ''}NULL`);
    return adminListPage(query, request, { created_at: 'key.createdAt', name: 'key.name' }, (rows) =>
      this.toViews(tenantUuid, rows),
    );
  }

  async get(tenantUuid: string, uuid: string): Promise<ApiKeyView> {
    const apiKey = await this.apiKeys.findOneBy({ tenantUuid, uuid });
    if (!apiKey) throw new NotFoundError('API key');
    return (await this.toViews(tenantUuid, [apiKey]))[0];
  }

  /** Another role ends the key's tokens: they carry the old role's permissions. */
  async updateIn(
    scope: AdminScope,
    uuid: string,
    change: UpdateApiKeyPayload['changes'],
  ): Promise<ApiKeyView> {
    const name = change.name === undefined ? undefined : validName(change.name);
    return this.admin.run(scope, async (manager) => {
      const { apiKey, role } = await this.lockedKey(manager, scope, uuid, 'changing this API key');
      const newRole =
        change.role === undefined ? undefined : await this.roles.toGive(manager, scope, change.role);
      const before = toApiKeyView(apiKey, role.name);
      const changedFields: string[] = [];
      if (name !== undefined && name !== apiKey.name) {
        apiKey.name = name;
        changedFields.push('name');
      }
      if (newRole && newRole.uuid !== apiKey.roleUuid) {
        apiKey.roleUuid = newRole.uuid;
        changedFields.push('role');
      }
      if (changedFields.length > 0) await manager.save(apiKey);
      const after = toApiKeyView(apiKey, newRole?.name ?? role.name);
      return {
        result: after,
        audit:
          changedFields.length > 0
            ? [{ kind: 'api_key.updated', target: { type: 'api_key', uuid }, changedFields, before, after }]
            : [],
        revokes: changedFields.includes('role') ? [uuid] : [],
      };
    });
  }

  /** Revocation is final: a leaked key must not come back by mistake. It ends the key's tokens at once. */
  async revokeIn(scope: AdminScope, uuid: string): Promise<ApiKeyView> {
    return this.admin.run(scope, async (manager) => {
      const { apiKey, role } = await this.lockedKey(manager, scope, uuid, 'revoking this API key');
      const before = toApiKeyView(apiKey, role.name);
      if (apiKey.revokedAt !== null) return { result: before, audit: [] };
      apiKey.revokedAt = new Date();
      await manager.save(apiKey);
      const after = toApiKeyView(apiKey, role.name);
      return {
        result: after,
        audit: [
          {
            kind: 'api_key.revoked',
            target: { type: 'api_key', uuid },
            changedFields: ['revoked'],
            before,
            after,
          },
        ],
        revokes: [uuid],
      };
    });
  }

  /** The key, locked, and its role, all of which the caller must hold to act on the key. */
  private async lockedKey(
    manager: EntityManager,
    scope: AdminScope,
    uuid: string,
    what: string,
  ): Promise<{ apiKey: ApiKeyEntity; role: RoleEntity }> {
    const apiKey = await lockedRow(manager, ApiKeyEntity, scope.tenantUuid, uuid, 'API key');
    return { apiKey, role: await this.roles.heldFor(manager, scope, apiKey.roleUuid, what) };
  }

  private async toViews(tenantUuid: string, keys: ApiKeyEntity[]): Promise<ApiKeyView[]> {
    const roleNames = await this.roles.nameMap(tenantUuid);
    return keys.map((key) => toApiKeyView(key, roleNames.get(key.roleUuid) ?? ''));
  }
}
