import { userInfo } from 'node:os';
import { type AuditActorType, ErrorCode, permissionGranted } from '@cpc/contracts';
import { DomainError } from '@cpc/errors';

/** Who makes an administrative change, as the audit log records it. */
export interface AdminActor {
  type: AuditActorType;
  /** The user's or API key's uuid; null for the CLI. */
  uuid: string | null;
  /** The user's e-mail, the API key's public key, or the CLI operator's system login. */
  name: string;
  /** The client address api-gateway determined; null for the CLI. */
  address: string | null;
}

/** A change's tenant, its actor, and what the actor holds (what it may hand out or act upon). */
export interface AdminScope {
  tenantUuid: string;
  actor: AdminActor;
  grants: readonly string[];
}

/** The operator at the admin CLI holds everything: the CLI runs inside the cluster with the database's password. */
export function cliScope(tenantUuid: string): AdminScope {
  let login = 'unknown';
  try {
    login = userInfo().username;
  } catch {
    // No passwd entry for the process's uid (some containers): the operator stays unnamed.
  }
  return { tenantUuid, actor: { type: 'cli', uuid: null, name: login, address: null }, grants: ['*'] };
}

/** The permissions of `permissions` that `grants` do not cover. */
export function permissionsNotHeld(grants: readonly string[], permissions: readonly string[]): string[] {
  return permissions.filter((permission) => !permissionGranted(grants, permission));
}

/**
 * Nobody hands out, or acts on an account holding, a permission it does not hold itself: creating or changing a role,
 * giving a role to a user or key, and changing, disabling or deleting a user or key whose role holds more (else a
 * caller could reset a stronger account's password and sign in as it). Refused with 403.
 */
export function requireHeld(scope: AdminScope, permissions: readonly string[], what: string): void {
  const missing = permissionsNotHeld(scope.grants, permissions);
  if (missing.length > 0) {
    throw new DomainError(
      ErrorCode.Forbidden,
      `${what} needs permissions the caller does not hold: ${missing.join(', ')}`,
    );
  }
}
