import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { USER_ENTITY_TYPES, type UserEntityType } from '@cpc/contracts';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import type { Repository } from 'typeorm';
import {
  alreadyExists,
  isUniqueViolation,
  requireEmail,
  requirePassword,
} from '../credentials/admin-input-rules.js';
import { normalizeLoginName } from '../credentials/login-name.js';
import { SecretHasher } from '../credentials/secret-hasher.js';
import { RolesService } from '../roles/roles.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { AccountRevocationsService } from '../tokens/account-revocations.service.js';
import { UserEntity } from './user.entity.js';

export interface UserView {
  uuid: string;
  email: string;
  entity_type: UserEntityType;
  role: string;
  disabled: boolean;
}

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly tenants: TenantsService,
    private readonly roles: RolesService,
    private readonly hasher: SecretHasher,
    private readonly revocations: AccountRevocationsService,
  ) {}

  async create(input: {
    tenantSlug: string;
    email: string;
    password: string;
    roleName: string;
    entityType?: string;
  }): Promise<UserView> {
    const tenant = await this.tenants.getBySlug(input.tenantSlug);
    const email = normalizeLoginName(input.email);
    requireEmail(email);
    requirePassword(input.password);
    const entityType = input.entityType ?? 'user';
    if (!(USER_ENTITY_TYPES as readonly string[]).includes(entityType)) {
      throw ValidationFailedError.single(
        'entity_type',
        'invalid_value',
        `entity type must be one of ${USER_ENTITY_TYPES.join(', ')}`,
      );
    }
    const role = await this.roles.getByName(tenant.uuid, input.roleName);
    const user = this.users.create({
      uuid: randomUUID(),
      tenantUuid: tenant.uuid,
      email,
      passwordHash: await this.hasher.hash(input.password),
      entityType: entityType as UserEntityType,
      roleUuid: role.uuid,
      disabledAt: null,
    });
    try {
      await this.users.save(user);
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyExists('email', `user ${email}`);
      throw error;
    }
    return { uuid: user.uuid, email, entity_type: user.entityType, role: role.name, disabled: false };
  }

  async list(tenantSlug: string): Promise<UserView[]> {
    const tenant = await this.tenants.getBySlug(tenantSlug);
    const [users, roles] = await Promise.all([
      this.users.find({ where: { tenantUuid: tenant.uuid }, order: { email: 'ASC' } }),
      this.roles.list(tenantSlug),
    ]);
    const roleNames = new Map(roles.map((role) => [role.uuid, role.name]));
    return users.map((user) => ({
      uuid: user.uuid,
      email: user.email,
      entity_type: user.entityType,
      role: roleNames.get(user.roleUuid) ?? '',
      disabled: user.disabledAt !== null,
    }));
  }

  findForLogin(tenantUuid: string, email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ tenantUuid, email: normalizeLoginName(email) });
  }

  findByUuid(uuid: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ uuid });
  }

  async update(
    tenantSlug: string,
    email: string,
    change: { disabled?: boolean; roleName?: string; password?: string },
  ): Promise<UserView> {
    const tenant = await this.tenants.getBySlug(tenantSlug);
    const user = await this.findForLogin(tenant.uuid, email);
    if (!user) throw new NotFoundError(`user ${email}`);
    // A disable, a new password or another role ends the account's sessions: its tokens were issued for what was.
    let revokes = change.disabled === true;
    if (change.disabled !== undefined)
      user.disabledAt = change.disabled ? (user.disabledAt ?? new Date()) : null;
    let roleName: string | undefined;
    if (change.roleName !== undefined) {
      const role = await this.roles.getByName(tenant.uuid, change.roleName);
      revokes ||= role.uuid !== user.roleUuid;
      user.roleUuid = role.uuid;
      roleName = role.name;
    }
    if (change.password !== undefined) {
      requirePassword(change.password);
      user.passwordHash = await this.hasher.hash(change.password);
      revokes = true;
    }
    await this.revocations.changeAndRevoke(
      tenant.uuid,
      (manager) => manager.save(user),
      revokes ? [user.uuid] : [],
    );
    roleName ??= (await this.roles.findByUuid(user.roleUuid))?.name ?? '';
    return {
      uuid: user.uuid,
      email: user.email,
      entity_type: user.entityType,
      role: roleName,
      disabled: user.disabledAt !== null,
    };
  }
}
