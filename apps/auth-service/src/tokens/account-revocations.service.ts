import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AccountRevocation, ListRevocationsRequest, RevocationPage } from '@cpc/contracts';
import { describeError, ValidationFailedError } from '@cpc/errors';
import { DataSource, type EntityManager } from 'typeorm';
import { AUTH_CONFIG } from '../auth-config.token.js';
import type { AuthServiceConfig } from '../auth-service.config.js';
import { AccountRevocationPublisher } from './account-revocation-publisher.js';

/** A revocation is kept this long past its not_before: no access token lives longer (ACCESS_TOKEN_TTL_SECONDS' maximum). */
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
    const rows: { uuid: string }[] = await manager.query(
      `SELECT uuid FROM auth.users WHERE role_uuid = $1
       UNION ALL SELECT uuid FROM auth.api_keys WHERE role_uuid = $1 AND revoked_at IS NULL`,
      [roleUuid],
    );
    return rows.map((row) => row.uuid);
  }

  /** Every user and live API key of the tenant: a disabled tenant's accounts all lose their tokens. */
  async accountsOfTenant(manager: EntityManager, tenantUuid: string): Promise<string[]> {
    const rows: { uuid: string }[] = await manager.query(
      `SELECT uuid FROM auth.users WHERE tenant_uuid = $1
       UNION ALL SELECT uuid FROM auth.api_keys WHERE tenant_uuid = $1 AND revoked_at IS NULL`,
      [tenantUuid],
    );
    return rows.map((row) => row.uuid);
  }

  /** The earliest `iat` an access token of the account may carry (0: no revocation in force). */
  async notBeforeOf(accountUuid: string): Promise<number> {
    const rows: { not_before: string }[] = await this.dataSource.query(
      `SELECT not_before FROM auth.account_revocations WHERE account_uuid = $1`,
      [accountUuid],
    );
    return rows.length > 0 ? Number(rows[0].not_before) : 0;
  }

  async page(request: ListRevocationsRequest): Promise<RevocationPage> {
    const { changedSince, afterSequence } = request ?? {};
    if (!Number.isSafeInteger(afterSequence) || afterSequence < 0)
      throw ValidationFailedError.single('afterSequence', 'invalid_value', 'a non-negative integer');
    if (changedSince !== null && (typeof changedSince !== 'string' || Number.isNaN(Date.parse(changedSince))))
      throw ValidationFailedError.single('changedSince', 'invalid_value', 'null or an ISO 8601 instant');
    // Read first: a revocation committed while the page is read is then read again next time, never skipped.
    const [{ as_of: asOf }]: { as_of: Date }[] = await this.dataSource.query(`SELECT now() AS as_of`);
    const rows: { account_uuid: string; not_before: string; sequence: string }[] =
      await this.dataSource.query(
        `SELECT account_uuid, not_before, sequence FROM auth.account_revocations
       WHERE ($1::timestamptz IS NULL OR changed_at >= $1::timestamptz) AND sequence > $2
         AND not_before >= floor(extract(epoch FROM now()))::bigint - $3
       ORDER BY sequence LIMIT $4`,
        [changedSince, afterSequence, RETENTION_SECONDS, this.config.tuning.revocationsPageSize + 1],
      );
    const page = rows.slice(0, this.config.tuning.revocationsPageSize);
    return {
      revocations: page.map((row) => ({ subject: row.account_uuid, notBefore: Number(row.not_before) })),
      asOf: asOf.toISOString(),
      lastSequence: page.length > 0 ? Number(page[page.length - 1].sequence) : afterSequence,
      more: rows.length > this.config.tuning.revocationsPageSize,
    };
  }

  /**
   * Tokens issued up to the current second are refused (not_before is the next second): `iat` counts whole seconds,
   * and auth-service gives tokens issued later an `iat` of at least not_before. clock_timestamp(), not the
   * transaction's start, so that tokens issued while the change ran are refused too. A revocation already in force at
   * or past that second moves one second on: tokens issued since the previous change carry its not_before as `iat`.
   */
  private async revoke(
    manager: EntityManager,
    tenantUuid: string,
    accountUuids: string[],
  ): Promise<AccountRevocation[]> {
    if (accountUuids.length === 0) return [];
    await manager.query(
      `UPDATE auth.refresh_tokens SET revoked_at = now() WHERE account_uuid = ANY($1::uuid[]) AND revoked_at IS NULL`,
      [accountUuids],
    );
    const rows: { account_uuid: string; not_before: string }[] = await manager.query(
      `INSERT INTO auth.account_revocations AS revocation (account_uuid, tenant_uuid, not_before)
       SELECT account_uuid, $2, floor(extract(epoch FROM clock_timestamp()))::bigint + 1
       FROM unnest($1::uuid[]) AS account_uuid
       ON CONFLICT (account_uuid) DO UPDATE SET
         not_before = GREATEST(revocation.not_before + 1, EXCLUDED.not_before),
         sequence = nextval('auth.account_revocation_sequence'),
         changed_at = now()
       RETURNING account_uuid, not_before`,
      [accountUuids, tenantUuid],
    );
    await manager.query(
      `DELETE FROM auth.account_revocations WHERE not_before < floor(extract(epoch FROM now()))::bigint - $1`,
      [RETENTION_SECONDS],
    );
    return rows.map((row) => ({ subject: row.account_uuid, notBefore: Number(row.not_before) }));
  }
}
