import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import type { Repository } from 'typeorm';
import { alreadyExists, isUniqueViolation, PERMISSION_PATTERN } from '../credentials/admin-input-rules.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { AccountRevocationsService } from '../tokens/account-revocations.service.js';
import { RoleEntity } from './role.entity.js';

export interface RoleView {
  uuid: string;
  name: string;
  permissions: string[];
}

export const toRoleView = (role: RoleEntity): RoleView => ({
  uuid: role.uuid,
  name: role.name,
  permissions: role.permissions,
});

function normalizePermissions(permissions: string[]): string[] {
  const cleaned = [...new Set(permissions.map((permission) => permission.trim()).filter(Boolean))];
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

@Injectable()
export class RolesService {
  constructor(
    @InjectRepository(RoleEntity) private readonly roles: Repository<RoleEntity>,
    private readonly tenants: TenantsService,
    private readonly revocations: AccountRevocationsService,
  ) {}

  async create(tenantSlug: string, name: string, permissions: string[]): Promise<RoleEntity> {
    const tenant = await this.tenants.getBySlug(tenantSlug);
    if (!/^[\w .-]{1,100}$/.test(name))
      throw ValidationFailedError.single(
        'name',
        'invalid_format',
        'role name must be 1 to 100 word characters',
      );
    try {
      return await this.roles.save(
        this.roles.create({
          uuid: randomUUID(),
          tenantUuid: tenant.uuid,
          name,
          permissions: normalizePermissions(permissions),
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyExists('name', `role ${name}`);
      throw error;
    }
  }

  async list(tenantSlug: string): Promise<RoleEntity[]> {
    const tenant = await this.tenants.getBySlug(tenantSlug);
    return this.roles.find({ where: { tenantUuid: tenant.uuid }, order: { name: 'ASC' } });
  }

  async getByName(tenantUuid: string, name: string): Promise<RoleEntity> {
    const role = await this.roles.findOneBy({ tenantUuid, name });
    if (!role) throw new NotFoundError(`role ${name}`);
    return role;
  }

  findByUuid(uuid: string): Promise<RoleEntity | null> {
    return this.roles.findOneBy({ uuid });
  }

  async setPermissions(tenantSlug: string, name: string, permissions: string[]): Promise<RoleEntity> {
    const tenant = await this.tenants.getBySlug(tenantSlug);
    const role = await this.getByName(tenant.uuid, name);
    const previous = [...role.permissions].sort().join(' ');
    role.permissions = normalizePermissions(permissions);
    // Tokens carry their permissions: every holder's tokens end when the set changes.
    const changed = [...role.permissions].sort().join(' ') !== previous;
    await this.revocations.changeAndRevoke(
      tenant.uuid,
      (manager) => manager.save(role),
      changed ? (manager) => this.revocations.holdersOfRole(manager, role.uuid) : [],
    );
    return role;
  }
}
