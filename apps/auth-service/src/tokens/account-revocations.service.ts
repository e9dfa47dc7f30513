import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AccountRevocation, ListRevocationsRequest, RevocationPage } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { describeError, ValidationFailedError } from '@cpc/errors';
import { DataSource, type EntityManager } from 'typeorm';
import { AUTH_CONFIG } from '../auth-config.token.js';
import type { AuthServiceConfig } from '../auth-service.config.js';
import { AccountRevocationPublisher } from './account-revocation-publisher.js';
import {
  accountsHoldingRole,
  accountsInTenant,
  deleteExpiredRevocations,
  notBeforeOfAccount,
  recordRevocations,
  revocationsAsOf,
  revocationsPage,
  revokeRefreshTokens,
} from './account-revocations.repository.js';

/**
 * A revocation is kept this long past its not_before: no access token lives longer (ACCESS_TOKEN_TTL_SECONDS'
 * maximum).
 */
const RETENTION_SECONDS = 86400;

/** The accounts a change revokes: given, or found inside the change's transaction. */
type RevokedAccounts = string[] | ((manager: EntityManager) => Promise<string[]>);

/**
 * Makes credential changes take effect: a password change, a disable, a role change, a role's new permissions or an
 * API key's revocation revokes the account's refresh-token families and records a "not before" time for its access
 * tokens, in the transaction of the change. api-gateways learn it from the announcement, or from their next poll.
 */
@Injectable()
export class AccountRevocationsService {
  private readonly logger = new Logger(AccountRevocationsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: AccountRevocationPublisher,
    @Inject(AUTH_CONFIG) private readonly config: AuthServiceConfig,
  ) {}

  /** Runs `change` and revokes `accounts` in one transaction; announces the revocations once it committed. */
  async changeAndRevoke(
    tenantUuid: string,
    change: (manager: EntityManager) => Promise<unknown>,
    accounts: RevokedAccounts,
  ): Promise<void> {
    const revocations = await this.dataSource.transaction(async (manager) => {
      await change(manager);
      const accountUuids = typeof accounts === 'function' ? await accounts(manager) : accounts;
      return this.revoke(manager, tenantUuid, accountUuids);
    });
    if (revocations.length === 0) return;
    try {
      await this.publisher.publish({ revocations });
    } catch (error) {
      // Committed already; the gateways' next poll brings it.
      this.logger.warn(`revocations not announced: ${describeError(error)}`);
    }
  }

  /** Users and live API keys that have the role. */
  async holdersOfRole(manager: EntityManager, roleUuid: string): Promise<string[]> {
    const rows = await runStatement(manager, accountsHoldingRole, { roleUuid });
    return rows.map((row) => row.uuid);
  }

  /** Every user and live API key of the tenant: a disabled tenant's accounts all lose their tokens. */
  async accountsOfTenant(manager: EntityManager, tenantUuid: string): Promise<string[]> {
    const rows = await runStatement(manager, accountsInTenant, { tenantUuid });
    return rows.map((row) => row.uuid);
  }

  /** The earliest `iat` an access token of the account may carry (0: no revocation in force). */
  async notBeforeOf(accountUuid: string): Promise<number> {
    const rows = await runStatement(this.dataSource, notBeforeOfAccount, { accountUuid });
    return rows.length > 0 ? Number(rows[0].not_before) : 0;
  }

  async page(request: ListRevocationsRequest): Promise<RevocationPage> {
    const { changedSince, afterSequence } = request ?? {};
    if (!Number.isSafeInteger(afterSequence) || afterSequence < 0)
      throw ValidationFailedError.single('afterSequence', 'invalid_value', 'a non-negative integer');
    if (changedSince !== null && (typeof changedSince !== 'string' || Number.isNaN(Date.parse(changedSince))))
      throw ValidationFailedError.single('changedSince', 'invalid_value', 'null or an ISO 8601 instant');
    // Read first: a revocation committed while the page is read is then read again next time, never skipped.
    const [{ as_of: asOf }] = await runStatement(this.dataSource, revocationsAsOf, {});
    const rows = await runStatement(this.dataSource, revocationsPage, {
      changedSince,
      afterSequence,
      retentionSeconds: RETENTION_SECONDS,
      limit: this.config.tuning.revocationsPageSize + 1,
    });
    const page = rows.slice(0, this.config.tuning.revocationsPageSize);
    return {
      revocations: page.map((row) => ({ subject: row.account_uuid, notBefore: Number(row.not_before) })),
      asOf: asOf.toISOString(),
      lastSequence: page.length > 0 ? Number(page[page.length - 1].sequence) : afterSequence,
      more: rows.length > this.config.tuning.revocationsPageSize,
    };
  }

  /** Revokes the accounts' refresh tokens and records their access tokens' not_before (see recordRevocations). */
  private async revoke(
    manager: EntityManager,
    tenantUuid: string,
    accountUuids: string[],
  ): Promise<AccountRevocation[]> {
    if (accountUuids.length === 0) return [];
    await runStatement(manager, revokeRefreshTokens, { accountUuids });
    const rows = await runStatement(manager, recordRevocations, { accountUuids, tenantUuid });
    await runStatement(manager, deleteExpiredRevocations, { retentionSeconds: RETENTION_SECONDS });
    return rows.map((row) => ({ subject: row.account_uuid, notBefore: Number(row.not_before) }));
  }
}
