import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  type AdminPage,
  type CreateUserPayload,
  type ListUsersPayload,
  USER_ENTITY_TYPES,
  type UpdateUserPayload,
  type UserEntityType,
  type UserView,
} from '@cpc/contracts';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import type { Repository } from 'typeorm';
import { AdminChanges } from '../admin/admin-changes.service.js';
import { adminListPage, containing } from '../admin/admin-listing.js';
import type { AdminScope } from '../admin/admin-scope.js';
import { lockedRow } from '../admin/locked-row.js';
import { refusingDuplicates, requireEmail, requirePassword } from '../credentials/admin-input-rules.js';
import { normalizeLoginName } from '../credentials/login-name.js';
import { SecretHasher } from '../credentials/secret-hasher.js';
import { RolesService } from '../roles/roles.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { UserEntity } from './user.entity.js';

export type { UserView } from '@cpc/contracts';

const toUserView = (user: UserEntity, role: string): UserView => ({
  uuid: user.uuid,
  email: user.email,
  entity_type: user.entityType,
  role,
  disabled: user.disabledAt !== null,
  created_at: user.createdAt.toISOString(),
  updated_at: user.updatedAt.toISOString(),
});

function requireString(parameter: string, value: unknown): string {
  if (typeof value !== 'string')
    throw ValidationFailedError.single(parameter, 'invalid_type', `${parameter} must be a string`);
  return value;
}

function validEmail(value: unknown): string {
  const email = normalizeLoginName(requireString('email', value));
  requireEmail(email);
  return email;
}

function validPassword(value: unknown): string {
  const password = requireString('password', value);
  requirePassword(password);
  return password;
}

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly tenants: TenantsService,
    private readonly roles: RolesService,
    private readonly hasher: SecretHasher,
    private readonly admin: AdminChanges,
  ) {}

  /** The CLI's user:create. */
  async create(input: {
    tenantSlug: string;
    email: string;
    password: string;
    roleName: string;
    entityType?: string;
  }): Promise<UserView> {
    return this.createIn(await this.admin.cliScope(input.tenantSlug), {
      email: input.email,
      password: input.password,
      role: input.roleName,
      entity_type: input.entityType,
    });
  }

  /** The CLI's user:list: every user of the tenant. */
  async list(tenantSlug: string): Promise<UserView[]> {
    const tenant = await this.tenants.getBySlug(tenantSlug);
    const users = await this.users.find({ where: { tenantUuid: tenant.uuid }, order: { email: 'ASC' } });
    return this.toViews(tenant.uuid, users);
  }

  findForLogin(tenantUuid: string, email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ tenantUuid, email: normalizeLoginName(email) });
  }

  findByUuid(uuid: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ uuid });
  }

  /** The CLI's user:disable, user:enable, user:set-role and user:set-password. */
  async update(
    tenantSlug: string,
    email: string,
    change: { disabled?: boolean; roleName?: string; password?: string },
  ): Promise<UserView> {
    const scope = await this.admin.cliScope(tenantSlug);
    const user = await this.findForLogin(scope.tenantUuid, email);
    if (!user) throw new NotFoundError(`user ${email}`);
    return this.updateIn(scope, user.uuid, {
      disabled: change.disabled,
      role: change.roleName,
      password: change.password,
    });
  }

  async createIn(scope: AdminScope, input: CreateUserPayload): Promise<UserView> {
    const email = validEmail(input.email);
    const password = validPassword(input.password);
    const entityType = input.entity_type ?? 'user';
    if (!(USER_ENTITY_TYPES as readonly string[]).includes(entityType)) {
      throw ValidationFailedError.single(
        'entity_type',
        'invalid_value',
        `entity type must be one of ${USER_ENTITY_TYPES.join(', ')}`,
      );
    }
    const passwordHash = await this.hasher.hash(password);
    return refusingDuplicates('email', `user ${email}`, () =>
      this.admin.run(scope, async (manager) => {
        const role = await this.roles.toGive(manager, scope, input.role);
        const user = manager.create(UserEntity, {
          uuid: randomUUID(),
          tenantUuid: scope.tenantUuid,
          email,
          passwordHash,
          entityType: entityType as UserEntityType,
          roleUuid: role.uuid,
          disabledAt: null,
        });
        const view = toUserView(await manager.save(user), role.name);
        return {
          result: view,
          audit: [
            {
              kind: 'user.created',
              target: { type: 'user', uuid: user.uuid },
              changedFields: ['email', 'password', 'role', 'entity_type'],
              before: null,
              after: view,
            },
          ],
        };
      }),
    );
  }

  async page(tenantUuid: string, request: ListUsersPayload): Promise<AdminPage<UserView>> {
    const query = this.users
      .createQueryBuilder('user')
      .where('user.tenantUuid = :tenantUuid', { tenantUuid });
    const { email, role, disabled } = request.filter ?? {};
    if (email !== undefined) query.andWhere('user.email ILIKE :email', { email: containing(email) });
    if (role !== undefined)
      query.andWhere(
        'user.roleUuid IN (SELECT uuid FROM auth.roles WHERE tenant_uuid = :tenantUuid AND name = :role)',
        { role },
      );
    if (disabled !== undefined) query.andWhere(`user.disabledAt IS ${disabled ? 'NOT ' : ''}NULL`);
    return adminListPage(query, request, { created_at: 'user.createdAt', email: 'user.email' }, (rows) =>
      this.toViews(tenantUuid, rows),
    );
  }

  async get(tenantUuid: string, uuid: string): Promise<UserView> {
    const user = await this.users.findOneBy({ tenantUuid, uuid });
    if (!user) throw new NotFoundError('user');
    return (await this.toViews(tenantUuid, [user]))[0];
  }

  /** A disable, a new password or another role ends the account's sessions: its tokens were issued for what was. */
  async updateIn(scope: AdminScope, uuid: string, change: UpdateUserPayload['changes']): Promise<UserView> {
    const email = change.email === undefined ? undefined : validEmail(change.email);
    const passwordHash =
      change.password === undefined ? undefined : await this.hasher.hash(validPassword(change.password));
    if (change.disabled !== undefined && typeof change.disabled !== 'boolean')
      throw ValidationFailedError.single('disabled', 'invalid_type', 'disabled must be true or false');
    return refusingDuplicates('email', `user ${email ?? ''}`, () =>
      this.admin.run(scope, async (manager) => {
        const user = await lockedRow(manager, UserEntity, scope.tenantUuid, uuid, 'user');
        const role = await this.roles.heldFor(manager, scope, user.roleUuid, 'changing this user');
        const newRole =
          change.role === undefined ? undefined : await this.roles.toGive(manager, scope, change.role);
        const before = toUserView(user, role.name);
        const changedFields: string[] = [];
        let revokes = change.disabled === true;
        if (email !== undefined && email !== user.email) {
          user.email = email;
          changedFields.push('email');
        }
        if (change.disabled !== undefined && change.disabled !== (user.disabledAt !== null)) {
          user.disabledAt = change.disabled ? new Date() : null;
          changedFields.push('disabled');
        }
        if (newRole && newRole.uuid !== user.roleUuid) {
          user.roleUuid = newRole.uuid;
          changedFields.push('role');
          revokes = true;
        }
        if (passwordHash !== undefined) {
          user.passwordHash = passwordHash;
          changedFields.push('password');
          revokes = true;
        }
        if (changedFields.length > 0) await manager.save(user);
        const after = toUserView(user, newRole?.name ?? role.name);
        return {
          result: after,
          audit:
            changedFields.length > 0
              ? [{ kind: 'user.updated', target: { type: 'user', uuid }, changedFields, before, after }]
              : [],
          revokes: revokes ? [uuid] : [],
        };
      }),
    );
  }

  async deleteIn(scope: AdminScope, uuid: string): Promise<void> {
    await this.admin.run(scope, async (manager) => {
      const user = await lockedRow(manager, UserEntity, scope.tenantUuid, uuid, 'user');
      const role = await this.roles.heldFor(manager, scope, user.roleUuid, 'deleting this user');
      const before = toUserView(user, role.name);
      await manager.delete(UserEntity, { uuid });
      return {
        result: undefined,
        audit: [
          { kind: 'user.deleted', target: { type: 'user', uuid }, changedFields: [], before, after: null },
        ],
        revokes: [uuid],
      };
    });
  }

  private async toViews(tenantUuid: string, users: UserEntity[]): Promise<UserView[]> {
    const roleNames = await this.roles.nameMap(tenantUuid);
    return users.map((user) => toUserView(user, roleNames.get(user.roleUuid) ?? ''));
  }
}
