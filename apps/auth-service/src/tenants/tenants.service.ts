import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  AUTHORIZATION_MODES,
  type AuthorizationMode,
  ENTITY_TYPES,
  type EntityType,
  invalidUuidIssue,
  isUuid,
  type ResolveTenantResponse,
} from '@cpc/contracts';
import { isUniqueViolation, runStatement } from '@cpc/database';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import type { EntityManager, Repository } from 'typeorm';
import { lockTenantForChange, lockTenantForDisable } from '../admin/admin-changes.repository.js';
import { cliScope } from '../admin/admin-scope.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { alreadyExists, requireMatch, TENANT_SLUG_PATTERN } from '../credentials/admin-input-rules.js';
import { AccountRevocationsService } from '../tokens/account-revocations.service.js';
import { TenantEntity } from './tenant.entity.js';

export interface TenantView {
  uuid: string;
  slug: string;
  name: string;
  default_context: EntityType;
  disabled: boolean;
  allows_security_profile_0: boolean;
  authorization_mode: AuthorizationMode;
}

/** What the ocpp-gateway knows of a tenant (auth.tenant.resolve.v1 and the settings-changed broadcast). */
export function toResolvedTenant(tenant: TenantEntity): ResolveTenantResponse {
  return {
    uuid: tenant.uuid,
    slug: tenant.slug,
    allowsSecurityProfile0: tenant.allowsSecurityProfile0,
    authorizationMode: tenant.authorizationMode,
  };
}

export function toTenantView(tenant: TenantEntity): TenantView {
  return {
    uuid: tenant.uuid,
    slug: tenant.slug,
    name: tenant.name,
    default_context: tenant.defaultContext,
    disabled: tenant.disabledAt !== null,
    allows_security_profile_0: tenant.allowsSecurityProfile0,
    authorization_mode: tenant.authorizationMode,
  };
}

@Injectable()
export class TenantsService {
  constructor(
    @InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>,
    private readonly revocations: AccountRevocationsService,
    private readonly auditLog: AuditLog,
  ) {}

  /** Saves the tenant with its audit entry (created when there is no `before`), in the caller's transaction. */
  private async saveAudited(
    manager: EntityManager,
    before: TenantView | null,
    tenant: TenantEntity,
    changedFields: string[],
  ): Promise<void> {
    await manager.save(tenant);
    await this.auditLog.record(manager, cliScope(tenant.uuid), [
      {
        kind: before ? 'tenant.updated' : 'tenant.created',
        target: { type: 'tenant', uuid: tenant.uuid },
        changedFields,
        before,
        after: toTenantView(tenant),
      },
    ]);
  }

  async create(input: {
    slug: string;
    name?: string;
    uuid?: string;
    defaultContext?: string;
  }): Promise<TenantEntity> {
    requireMatch('slug', input.slug, TENANT_SLUG_PATTERN, '3 to 128 lower-case letters, digits or dashes');
    if (input.uuid !== undefined && !isUuid(input.uuid))
      throw new ValidationFailedError([invalidUuidIssue('uuid')]);
    const defaultContext = input.defaultContext ?? 'user';
    if (!(ENTITY_TYPES as readonly string[]).includes(defaultContext)) {
      throw ValidationFailedError.single(
        'default_context',
        'invalid_value',
        `default_context must be one of ${ENTITY_TYPES.join(', ')}`,
      );
    }
    const tenant = this.tenants.create({
      uuid: input.uuid?.toLowerCase() ?? randomUUID(),
      slug: input.slug,
      name: input.name ?? input.slug,
      defaultContext: defaultContext as EntityType,
      allowsSecurityProfile0: false,
      authorizationMode: 'strict',
      disabledAt: null,
    });
    try {
      await this.tenants.manager.transaction((manager) =>
        this.saveAudited(manager, null, tenant, ['slug', 'name', 'uuid', 'default_context']),
      );
      return tenant;
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyExists('slug', `tenant ${input.slug} or its uuid`);
      throw error;
    }
  }

  list(): Promise<TenantEntity[]> {
    return this.tenants.find({ order: { createdAt: 'ASC' } });
  }

  async getBySlug(slug: string): Promise<TenantEntity> {
    const tenant = await this.tenants.findOneBy({ slug });
    if (!tenant) throw new NotFoundError(`tenant ${slug}`);
    return tenant;
  }

  /** The tenant a request may act in: present and not disabled. */
  async findActiveBySlug(slug: string): Promise<TenantEntity | null> {
    const tenant = await this.tenants.findOneBy({ slug });
    return tenant && tenant.disabledAt === null ? tenant : null;
  }

  async findActiveByUuid(uuid: string): Promise<TenantEntity | null> {
    const tenant = await this.tenants.findOneBy({ uuid });
    return tenant && tenant.disabledAt === null ? tenant : null;
  }

  /** Disabling revokes the refresh tokens and access tokens of every account of the tenant, as a user's disable does. */
  setDisabled(slug: string, disabled: boolean): Promise<TenantEntity> {
    let disabling = false;
    return this.update(
      slug,
      ['disabled'],
      (tenant) => {
        disabling = disabled && tenant.disabledAt === null;
        tenant.disabledAt = disabled ? (tenant.disabledAt ?? new Date()) : null;
      },
      (manager, tenant) =>
        disabling ? this.revocations.accountsOfTenant(manager, tenant.uuid) : Promise.resolve([]),
      // A grant under way either commits first, and its tokens are revoked here, or sees the tenant disabled.
      disabled ? lockTenantForDisable : lockTenantForChange,
    );
  }

  /** Charge points of security profile 0 connect to this tenant only while this is on (see docs/security.md). */
  setSecurityProfile0Allowed(slug: string, allowed: boolean): Promise<TenantEntity> {
    return this.update(slug, ['allows_security_profile_0'], (tenant) => {
      tenant.allowsSecurityProfile0 = allowed;
    });
  }

  /** How the ocpp-gateway answers the tenant's drivers (see docs/authorization.md). */
  async setAuthorizationMode(slug: string, mode: string): Promise<TenantEntity> {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode)) {
      throw ValidationFailedError.single(
        'mode',
        'invalid_value',
        `mode must be one of ${AUTHORIZATION_MODES.join(', ')}`,
      );
    }
    return this.update(slug, ['authorization_mode'], (tenant) => {
      tenant.authorizationMode = mode as AuthorizationMode;
    });
  }

  /**
   * Changes one setting of a tenant on its row locked in the change's transaction, so that two changes at once never
   * write back each other's stale values, and audits it.
   */
  private async update(
    slug: string,
    changedFields: string[],
    apply: (tenant: TenantEntity) => void,
    revokes: (manager: EntityManager, tenant: TenantEntity) => Promise<string[]> = () => Promise.resolve([]),
    lock = lockTenantForChange,
  ): Promise<TenantEntity> {
    const { uuid } = await this.getBySlug(slug);
    let changed: TenantEntity | undefined;
    await this.revocations.changeAndRevoke(
      uuid,
      async (manager) => {
        await runStatement(manager, lock, { tenantUuid: uuid });
        const tenant = await manager.findOneBy(TenantEntity, { uuid });
        if (!tenant) throw new NotFoundError(`tenant ${slug}`);
        const before = toTenantView(tenant);
        apply(tenant);
        await this.saveAudited(manager, before, tenant, changedFields);
        changed = tenant;
      },
      (manager) => (changed ? revokes(manager, changed) : Promise.resolve([])),
    );
    return changed!;
  }
}
