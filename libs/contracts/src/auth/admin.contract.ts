import type {
  AssetPage,
  CursorListPayload,
  ListAssetsPayload,
  ListPagination,
} from '../assets/asset-list.contract.js';
import type { TenantScopedRequest } from '../principal.js';
import type { UserEntityType } from './token.contract.js';

/**
 * NATS subjects of the admin HTTP API (`/api/v1/admin/...`), answered by auth-service, which owns users, roles, API
 * keys and their audit log. Versioned: a breaking payload change gets a new subject. Every request is an
 * AdminRequest: the caller's principal (tenant and grants from its verified token) and its address.
 */
export const AuthAdminSubjects = {
  listUsers: 'auth.admin.users.list.v1',
  createUser: 'auth.admin.users.create.v1',
  getUser: 'auth.admin.users.get.v1',
  updateUser: 'auth.admin.users.update.v1',
  deleteUser: 'auth.admin.users.delete.v1',
  listRoles: 'auth.admin.roles.list.v1',
  createRole: 'auth.admin.roles.create.v1',
  getRole: 'auth.admin.roles.get.v1',
  updateRole: 'auth.admin.roles.update.v1',
  deleteRole: 'auth.admin.roles.delete.v1',
  listApiKeys: 'auth.admin.api-keys.list.v1',
  createApiKey: 'auth.admin.api-keys.create.v1',
  getApiKey: 'auth.admin.api-keys.get.v1',
  updateApiKey: 'auth.admin.api-keys.update.v1',
  revokeApiKey: 'auth.admin.api-keys.revoke.v1',
  listAuditEvents: 'auth.admin.audit-events.list.v1',
} as const;

/** A request of the admin API: who asks (principal) and from where (api-gateway's client address, TRUSTED_PROXIES). */
export interface AdminRequest<TPayload> extends TenantScopedRequest<TPayload> {
  clientAddress: string;
}

/**
 * errorKey of the 422 answered when a change would leave a tenant that has an enabled user holding `*` without one
 * (deleting, disabling or moving the last such user, or taking `*` from the last such user's role).
 */
export const LAST_SUPER_ADMIN_ERROR_KEY = 'last_super_admin';

export interface UserView {
  uuid: string;
  email: string;
  entity_type: UserEntityType;
  role: string;
  disabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface RoleView {
  uuid: string;
  name: string;
  permissions: string[];
  created_at: string;
  updated_at: string;
}

export interface ApiKeyView {
  uuid: string;
  name: string;
  public_key: string;
  role: string;
  revoked: boolean;
  created_at: string;
}

/** The one answer that carries an API key's private key: its creation. */
export interface CreatedApiKeyView extends ApiKeyView {
  private_key: string;
}

export const USER_SORT_FIELDS = ['created_at', 'email'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export const NAMED_SORT_FIELDS = ['created_at', 'name'] as const;
export type NamedSortField = (typeof NAMED_SORT_FIELDS)[number];

export interface UserFilter {
  /** Part of the e-mail address, case-insensitive. */
  email?: string;
  role?: string;
  disabled?: boolean;
}

export interface RoleFilter {
  /** Part of the name, case-insensitive. */
  name?: string;
}

export interface ApiKeyFilter {
  /** Part of the name, case-insensitive. */
  name?: string;
  role?: string;
  revoked?: boolean;
}

export interface CreateUserPayload {
  email: string;
  password: string;
  role: string;
  entity_type?: string;
}

export interface UpdateUserPayload {
  uuid: string;
  changes: { email?: string; password?: string; role?: string; disabled?: boolean };
}

export interface CreateRolePayload {
  name: string;
  permissions: string[];
}

export interface UpdateRolePayload {
  uuid: string;
  changes: { name?: string; permissions?: string[] };
}

export interface CreateApiKeyPayload {
  role: string;
  name?: string;
}

export interface UpdateApiKeyPayload {
  uuid: string;
  changes: { name?: string; role?: string };
}

export type ListUsersPayload = ListAssetsPayload<UserFilter, UserSortField>;
export type ListRolesPayload = ListAssetsPayload<RoleFilter, NamedSortField>;
export type ListApiKeysPayload = ListAssetsPayload<ApiKeyFilter, NamedSortField>;

/** Who made a change: a user or API key through the admin API, or an operator with the admin CLI. */
export const AUDIT_ACTOR_TYPES = ['user', 'api_key', 'cli'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export const AUDIT_EVENT_KINDS = [
  'user.created',
  'user.updated',
  'user.deleted',
  'role.created',
  'role.updated',
  'role.deleted',
  'api_key.created',
  'api_key.updated',
  'api_key.revoked',
  'tenant.created',
  'tenant.updated',
] as const;
export type AuditEventKind = (typeof AUDIT_EVENT_KINDS)[number];

/** What a change changed; tenants are changed with the CLI only (it creates them, too). */
export const AUDIT_TARGET_TYPES = ['user', 'role', 'api_key', 'tenant'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export interface AuditEventView {
  uuid: string;
  occurred_at: string;
  kind: AuditEventKind;
  actor: {
    type: AuditActorType;
    /** The user's or API key's uuid; null for the CLI. */
    uuid: string | null;
    /** The user's e-mail, the API key's public key, or the CLI operator's system login. */
    name: string;
  };
  /** The client address api-gateway saw (X-Forwarded-For only from TRUSTED_PROXIES); null for the CLI. */
  source_address: string | null;
  target: { type: AuditTargetType; uuid: string };
  /** The fields the change touched (a password shows here by name only). */
  changed_fields: string[];
  /** The target as it was and as it is; null before a creation and after a deletion. Never a secret. */
  before: object | null;
  after: object | null;
}

export interface AuditEventFilter {
  actor_uuid?: string;
  actor_type?: AuditActorType;
  kind?: AuditEventKind;
  target_uuid?: string;
  /** Events at or after this instant (ISO 8601). */
  from?: string;
  /** Events before this instant (ISO 8601). */
  to?: string;
}

/** Audit events are listed newest first. */
export type ListAuditEventsPayload = Omit<ListAssetsPayload<AuditEventFilter>, 'orderBy'> & CursorListPayload;

/** A page of the audit log, numbered or read by cursor. */
export interface AuditEventPage {
  items: AuditEventView[];
  pagination: ListPagination;
}

export type AdminPage<TItem> = AssetPage<TItem>;

/**
 * A permission as roles hold it and token requests ask for it (`scope`): `area`, `area:resource`,
 * `area:resource:action`, or `*` for everything.
 */
export const PERMISSION_PATTERN = /^(\*|[a-z][a-z0-9-]*(:[a-z][a-z0-9-]*){0,2})$/;

/**
 * Whether granted permissions cover a required one. A grant covers itself and everything below it:
 * `control:commands` covers `control:commands:list`, `control` covers both, `*` covers all. api-gateway checks routes
 * with it; auth-service checks with it that nobody hands out more than it holds.
 */
export function permissionGranted(grants: readonly string[], required: string): boolean {
  return grants.some((grant) => grant === '*' || grant === required || required.startsWith(`${grant}:`));
}
