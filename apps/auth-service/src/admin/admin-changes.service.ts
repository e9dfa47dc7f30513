import { Injectable } from '@nestjs/common';
import { type AdminRequest, ErrorCode, LAST_SUPER_ADMIN_ERROR_KEY } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { DomainError, ValidationFailedError } from '@cpc/errors';
import { DataSource, type EntityManager } from 'typeorm';
import { type AuditEntry, AuditLog } from '../audit/audit-log.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { AccountRevocationsService } from '../tokens/account-revocations.service.js';
import {
  actingAccountName,
  disabledActingAccount,
  countSuperAdmins,
  lockTenantForChange,
} from './admin-changes.repository.js';
import { type AdminScope, cliScope } from './admin-scope.js';

/** What one administrative change did: its result, its audit entries and the accounts whose tokens it ends. */
export interface AdminChange<TResult> {
  result: TResult;
  audit: AuditEntry[];
  revokes?: string[];
}

function lastSuperAdminError(): ValidationFailedError {
  return ValidationFailedError.single(
    'uuid',
    LAST_SUPER_ADMIN_ERROR_KEY,
    'the change would leave the tenant without an enabled user holding *',
  );
}

/**
 * Runs every change of users, roles and API keys, from the admin API and the CLI alike, in one transaction that
 * first locks the tenant's row (so a tenant's changes happen one after the other), then makes the change, refuses one
 * made through the API when it took the tenant's last enabled holder of `*` (422 last_super_admin), writes its audit
 * entries and revokes the accounts it names; the revocations are announced once it committed.
 */
@Injectable()
export class AdminChanges {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tenants: TenantsService,
    private readonly revocations: AccountRevocationsService,
    private readonly auditLog: AuditLog,
  ) {}

  async run<TResult>(
    scope: AdminScope,
    change: (manager: EntityManager) => Promise<AdminChange<TResult>>,
  ): Promise<TResult> {
    let outcome: AdminChange<TResult> | undefined;
    await this.revocations.changeAndRevoke(
      scope.tenantUuid,
      async (manager) => {
        await runStatement(manager, lockTenantForChange, { tenantUuid: scope.tenantUuid });
        // The CLI's operator, who can always make a new admin (and makes a tenant's first), is not held to it.
        const guarded = scope.actor.type !== 'cli';
        // Checked again behind the lock: a disable or revocation of the actor that this change queued behind wins.
        if (guarded && scope.actor.uuid !== null) {
          const [disabled] = await runStatement(manager, disabledActingAccount, {
            tenantUuid: scope.tenantUuid,
            uuid: scope.actor.uuid,
          });
          if (disabled) throw new DomainError(ErrorCode.Unauthorized, 'the account is disabled or revoked');
        }
        const before = guarded ? await this.superAdmins(manager, scope.tenantUuid) : 0;
        outcome = await change(manager);
        if (before > 0 && (await this.superAdmins(manager, scope.tenantUuid)) === 0)
          throw lastSuperAdminError();
        await this.auditLog.record(manager, scope, outcome.audit);
      },
      () => Promise.resolve(outcome?.revokes ?? []),
    );
    return outcome!.result;
  }

  /** The admin CLI's scope in the tenant of `slug` (404 when there is none). */
  async cliScope(tenantSlug: string): Promise<AdminScope> {
    return cliScope((await this.tenants.getBySlug(tenantSlug)).uuid);
  }

  /** The scope of an admin API request: tenant and grants from the verified token, the address api-gateway saw. */
  async apiScope(request: AdminRequest<unknown>): Promise<AdminScope> {
    const { principal } = request;
    const account = await this.requireActingAccount(principal.tenantUuid, principal.subject);
    return {
      tenantUuid: principal.tenantUuid,
      actor: {
        type: principal.subjectType === 'apikey' ? 'api_key' : 'user',
        uuid: principal.subject,
        name: account.name,
        address: typeof request.clientAddress === 'string' ? request.clientAddress : null,
      },
      grants: principal.scopes,
    };
  }

  /** The acting account's name; 401 once it is deleted, disabled or revoked since its token was issued. */
  private async requireActingAccount(tenantUuid: string, uuid: string): Promise<{ name: string }> {
    const [account] = await runStatement(this.dataSource, actingAccountName, { tenantUuid, uuid });
    if (!account)
      throw new DomainError(ErrorCode.Unauthorized, 'the account is deleted, disabled or revoked');
    return account;
  }

  private async superAdmins(manager: EntityManager, tenantUuid: string): Promise<number> {
    const [row] = await runStatement(manager, countSuperAdmins, { tenantUuid });
    return Number(row.holders);
  }
}
