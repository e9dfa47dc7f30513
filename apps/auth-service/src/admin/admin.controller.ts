import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AdminPage,
  type AdminRequest,
  AuthAdminSubjects,
  type ApiKeyView,
  type AssetUuidPayload,
  type AuditEventPage,
  type CreateApiKeyPayload,
  type CreatedApiKeyView,
  type CreateRolePayload,
  type CreateUserPayload,
  type ListApiKeysPayload,
  type ListAuditEventsPayload,
  type ListRolesPayload,
  type ListUsersPayload,
  type RoleView,
  type UpdateApiKeyPayload,
  type UpdateRolePayload,
  type UpdateUserPayload,
  type UserView,
} from '@cpc/contracts';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { RolesService } from '../roles/roles.service.js';
import { UsersService } from '../users/users.service.js';
import { AdminChanges } from './admin-changes.service.js';

type Empty = Record<string, never>;

/**
 * NATS handlers of the admin API. The tenant and the caller's grants come from the principal api-gateway took from
 * the verified token, never from the payload; api-gateway has validated the payload's shape already.
 */
@Controller()
export class AdminController {
  constructor(
    private readonly admin: AdminChanges,
    private readonly users: UsersService,
    private readonly roles: RolesService,
    private readonly apiKeys: ApiKeysService,
    private readonly auditLog: AuditLog,
  ) {}

  @MessagePattern(AuthAdminSubjects.listUsers)
  listUsers(@Payload() request: AdminRequest<ListUsersPayload>): Promise<AdminPage<UserView>> {
    return this.users.page(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AuthAdminSubjects.createUser)
  async createUser(@Payload() request: AdminRequest<CreateUserPayload>): Promise<UserView> {
    return this.users.createIn(await this.admin.apiScope(request), request.payload);
  }

  @MessagePattern(AuthAdminSubjects.getUser)
  getUser(@Payload() request: AdminRequest<AssetUuidPayload>): Promise<UserView> {
    return this.users.get(request.principal.tenantUuid, request.payload.uuid);
  }

  @MessagePattern(AuthAdminSubjects.updateUser)
  async updateUser(@Payload() request: AdminRequest<UpdateUserPayload>): Promise<UserView> {
    const { uuid, changes } = request.payload;
    return this.users.updateIn(await this.admin.apiScope(request), uuid, changes);
  }

  @MessagePattern(AuthAdminSubjects.deleteUser)
  async deleteUser(@Payload() request: AdminRequest<AssetUuidPayload>): Promise<Empty> {
    await this.users.deleteIn(await this.admin.apiScope(request), request.payload.uuid);
    return {};
  }

  @MessagePattern(AuthAdminSubjects.listRoles)
  listRoles(@Payload() request: AdminRequest<ListRolesPayload>): Promise<AdminPage<RoleView>> {
    return this.roles.page(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AuthAdminSubjects.createRole)
  async createRole(@Payload() request: AdminRequest<CreateRolePayload>): Promise<RoleView> {
    return this.roles.createIn(await this.admin.apiScope(request), request.payload);
  }

  @MessagePattern(AuthAdminSubjects.getRole)
  getRole(@Payload() request: AdminRequest<AssetUuidPayload>): Promise<RoleView> {
    return this.roles.get(request.principal.tenantUuid, request.payload.uuid);
  }

  @MessagePattern(AuthAdminSubjects.updateRole)
  async updateRole(@Payload() request: AdminRequest<UpdateRolePayload>): Promise<RoleView> {
    const { uuid, changes } = request.payload;
    return this.roles.updateIn(await this.admin.apiScope(request), uuid, changes);
  }

  @MessagePattern(AuthAdminSubjects.deleteRole)
  async deleteRole(@Payload() request: AdminRequest<AssetUuidPayload>): Promise<Empty> {
    await this.roles.deleteIn(await this.admin.apiScope(request), request.payload.uuid);
    return {};
  }

  @MessagePattern(AuthAdminSubjects.listApiKeys)
  listApiKeys(@Payload() request: AdminRequest<ListApiKeysPayload>): Promise<AdminPage<ApiKeyView>> {
    return this.apiKeys.page(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AuthAdminSubjects.createApiKey)
  async createApiKey(@Payload() request: AdminRequest<CreateApiKeyPayload>): Promise<CreatedApiKeyView> {
    return this.apiKeys.createIn(await this.admin.apiScope(request), request.payload);
  }

  @MessagePattern(AuthAdminSubjects.getApiKey)
  getApiKey(@Payload() request: AdminRequest<AssetUuidPayload>): Promise<ApiKeyView> {
    return this.apiKeys.get(request.principal.tenantUuid, request.payload.uuid);
  }

  @MessagePattern(AuthAdminSubjects.updateApiKey)
  async updateApiKey(@Payload() request: AdminRequest<UpdateApiKeyPayload>): Promise<ApiKeyView> {
    const { uuid, changes } = request.payload;
    return this.apiKeys.updateIn(await this.admin.apiScope(request), uuid, changes);
  }

  @MessagePattern(AuthAdminSubjects.revokeApiKey)
  async revokeApiKey(@Payload() request: AdminRequest<AssetUuidPayload>): Promise<Empty> {
    await this.apiKeys.revokeIn(await this.admin.apiScope(request), request.payload.uuid);
    return {};
  }

  @MessagePattern(AuthAdminSubjects.listAuditEvents)
  listAuditEvents(@Payload() request: AdminRequest<ListAuditEventsPayload>): Promise<AuditEventPage> {
    return this.auditLog.page(request.principal.tenantUuid, request.payload);
  }
}
