import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  type AdminPage,
  type CreateRolePayload,
  HAS_DEPENDENTS_ERROR_KEY,
  type ListRolesPayload,
  PERMISSION_PATTERN,
  type RoleView,
  type UpdateRolePayload,
} from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import type { EntityManager, Repository } from 'typeorm';
import { AdminChanges } from '../admin/admin-changes.service.js';
import { adminListPage, containing } from '../admin/admin-listing.js';
import { type AdminScope, requireHeld } from '../admin/admin-scope.js';
import { lockedRow } from '../admin/locked-row.js';
import { refusingDuplicates } from '../credentials/admin-input-rules.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { AccountRevocationsService } from '../tokens/account-revocations.service.js';
import { RoleEntity } from './role.entity.js';
import { countRoleHolders, deleteRevokedKeysOfRole } from './roles.repository.js';

export type { RoleView } from '@cpc/contracts';

export const toRoleView = (role: RoleEntity): RoleView => ({
  uuid: role.uuid,
  name: role.name,
  permissions: role.permissions,
  created_at: role.createdAt.toISOString(),
  updated_at: role.updatedAt.toISOString(),
});

const ROLE_NAME_PATTERN = /^[\w .-]{1,100}$/;

function requireRoleName(name: unknown): string {
  if (typeof name !== 'string' || !ROLE_NAME_PATTERN.test(name))
    throw ValidationFailedError.single(
      'name',
      'invalid_format',
      'role name must be 1 to 100 word characters',
    );
  return name;
}

export function normalizePermissions(permissions: unknown): string[] {
  if (!Array.isArray(permissions) || permissions.some((permission) => typeof permission !== 'string'))
    throw ValidationFailedError.single(
      'permissions',
      'invalid_type',
      'permissions must be a list of strings',
    );
  const cleaned = [
    ...new Set((permissions as string[]).map((permission) => permission.trim()).filter(Boolean)),
  ];
  if (cleaned.length === 0)
    throw ValidationFailedError.single('permissions', 'required', 'a role needs at least one permission');
  const invalid = cleaned.filter((permission) => !PERMISSION_PATTERN.test(permission));
  if (invalid.length > 0) {
    throw ValidationFailedError.single(
      'permissions',
      'invalid_format',
      `not of the form area:resource:action or *: ${invalid.join(', ')}`,
    );
  }
  return cleaned;
}

const sameSet = (left: string[], right: string[]) =>
  [...left].sort().join(' ') === [...right].sort().join(' ');

@Injectable()
export class RolesService {
  constructor(
    @InjectRepository(RoleEntity) private readonly roles: Repository<RoleEntity>,
    private readonly tenants: TenantsService,
    private readonly revocations: AccountRevocationsService,
    private readonly admin: AdminChanges,
  ) {}

  /** The CLI's role:create. */
  async create(tenantSlug: string, name: string, permissions: string[]): Promise<RoleView> {
    return this.createIn(await this.admin.cliScope(tenantSlug), { name, permissions });
  }

  async list(tenantSlug: string): Promise<RoleEntity[]> {
    const tenant = await this.tenants.getBySlug(tenantSlug);
    return this.namesOf(tenant.uuid);
  }

  /** The CLI's role:set-permissions. */
  async setPermissions(tenantSlug: string, name: string, permissions: string[]): Promise<RoleView> {
    const scope = await this.admin.cliScope(tenantSlug);
    const role = await this.getByName(scope.tenantUuid, name);
    return this.updateIn(scope, role.uuid, { permissions });
  }

  async getByName(tenantUuid: string, name: string): Promise<RoleEntity> {
    const role = typeof name === 'string' ? await this.roles.findOneBy({ tenantUuid, name }) : null;
    if (!role) throw new NotFoundError(`role ${name}`);
    return role;
  }

  findByUuid(uuid: string): Promise<RoleEntity | null> {
    return this.roles.findOneBy({ uuid });
  }

  /** Every role of the tenant, by name. */
  namesOf(tenantUuid: string): Promise<RoleEntity[]> {
    return this.roles.find({ where: { tenantUuid }, order: { name: 'ASC' } });
  }

  /** Role uuid → name, for the views of the tenant's accounts. */
  async nameMap(tenantUuid: string): Promise<Map<string, string>> {
    return new Map((await this.namesOf(tenantUuid)).map((role) => [role.uuid, role.name]));
  }

  /**
   * The role named `name`, which the caller may give to an account: it holds every permission of it. Read in the
   * change's transaction, after the tenant's lock, so that the role checked is the role given.
   */
  async toGive(manager: EntityManager, scope: AdminScope, name: unknown): Promise<RoleEntity> {
    if (typeof name !== 'string')
      throw ValidationFailedError.single('role', 'invalid_type', 'role must be a role name');
    const role = await manager.findOneBy(RoleEntity, { tenantUuid: scope.tenantUuid, name });
    if (!role) throw new NotFoundError(`role ${name}`);
    requireHeld(scope, role.permissions, `role ${role.name}`);
    return role;
  }

  /** The role of an account the caller acts on, read in the change's transaction: the caller must hold all of it. */
  async heldFor(
    manager: EntityManager,
    scope: AdminScope,
    roleUuid: string,
    what: string,
  ): Promise<RoleEntity> {
    const role = await manager.findOneByOrFail(RoleEntity, { uuid: roleUuid });
    requireHeld(scope, role.permissions, what);
    return role;
  }

  async createIn(scope: AdminScope, input: CreateRolePayload): Promise<RoleView> {
    const name = requireRoleName(input.name);
    const permissions = normalizePermissions(input.permissions);
    requireHeld(scope, permissions, 'the role');
    return refusingDuplicates('name', `role ${name}`, () =>
      this.admin.run(scope, async (manager) => {
        const role = manager.create(RoleEntity, {
          uuid: randomUUID(),
          tenantUuid: scope.tenantUuid,
          name,
          permissions,
        });
        const view = toRoleView(await manager.save(role));
        return {
          result: view,
          audit: [
            {
              kind: 'role.created',
              target: { type: 'role', uuid: role.uuid },
              changedFields: ['name', 'permissions'],
              before: null,
              after: view,
            },
          ],
        };
      }),
    );
  }

  async page(tenantUuid: string, request: ListRolesPayload): Promise<AdminPage<RoleView>> {
    const query = this.roles
      .createQueryBuilder('role')
      .where('role.tenantUuid = :tenantUuid', { tenantUuid });
    if (request.filter?.name !== undefined)
      query.andWhere('role.name ILIKE :name', { name: containing(request.filter.name) });
    return adminListPage(query, request, { created_at: 'role.createdAt', name: 'role.name' }, (rows) =>
      Promise.resolve(rows.map(toRoleView)),
    );
  }

  async get(tenantUuid: string, uuid: string): Promise<RoleView> {
    const role = await this.roles.findOneBy({ tenantUuid, uuid });
    if (!role) throw new NotFoundError('role');
    return toRoleView(role);
  }

  /** A new set of permissions ends every holder's tokens: tokens carry their permissions. */
  async updateIn(scope: AdminScope, uuid: string, changes: UpdateRolePayload['changes']): Promise<RoleView> {
    const name = changes.name === undefined ? undefined : requireRoleName(changes.name);
    const permissions =
      changes.permissions === undefined ? undefined : normalizePermissions(changes.permissions);
    if (permissions) requireHeld(scope, permissions, 'the role');
    return refusingDuplicates('name', `role ${name ?? ''}`, () =>
      this.admin.run(scope, async (manager) => {
        const role = await lockedRow(manager, RoleEntity, scope.tenantUuid, uuid, 'role');
        requireHeld(scope, role.permissions, 'changing this role');
        const before = toRoleView(role);
        const changedFields: string[] = [];
        if (name !== undefined && name !== role.name) {
          role.name = name;
          changedFields.push('name');
        }
        if (permissions && !sameSet(permissions, role.permissions)) {
          role.permissions = permissions;
          changedFields.push('permissions');
        }
        if (changedFields.length === 0) return { result: before, audit: [] };
        const after = toRoleView(await manager.save(role));
        return {
          result: after,
          audit: [{ kind: 'role.updated', target: { type: 'role', uuid }, changedFields, before, after }],
          revokes: changedFields.includes('permissions')
            ? await this.revocations.holdersOfRole(manager, uuid)
            : [],
        };
      }),
    );
  }

  /** Refused (422 has_dependents) while users or live API keys have the role. */
  async deleteIn(scope: AdminScope, uuid: string): Promise<void> {
    await this.admin.run(scope, async (manager) => {
      const role = await lockedRow(manager, RoleEntity, scope.tenantUuid, uuid, 'role');
      requireHeld(scope, role.permissions, 'deleting this role');
      const [{ holders }] = await runStatement(manager, countRoleHolders, { roleUuid: uuid });
      if (Number(holders) > 0)
        throw ValidationFailedError.single(
          'uuid',
          HAS_DEPENDENTS_ERROR_KEY,
          'users or API keys have this role; give them another one first',
        );
      const before = toRoleView(role);
      await runStatement(manager, deleteRevokedKeysOfRole, { roleUuid: uuid });
      await manager.delete(RoleEntity, { uuid });
      return {
        result: undefined,
        audit: [
          { kind: 'role.deleted', target: { type: 'role', uuid }, changedFields: [], before, after: null },
        ],
      };
    });
  }
}
