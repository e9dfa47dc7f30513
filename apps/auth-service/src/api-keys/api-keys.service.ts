import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import type { Repository } from 'typeorm';
import { SecretHasher } from '../credentials/secret-hasher.js';
import { RolesService } from '../roles/roles.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { AccountRevocationsService } from '../tokens/account-revocations.service.js';
import { ApiKeyEntity } from './api-key.entity.js';

export interface ApiKeyView {
  uuid: string;
  name: string;
  public_key: string;
  role: string;
  revoked: boolean;
}

@Injectable()
export class ApiKeysService {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly apiKeys: Repository<ApiKeyEntity>,
    private readonly tenants: TenantsService,
    private readonly roles: RolesService,
    private readonly hasher: SecretHasher,
    private readonly revocations: AccountRevocationsService,
  ) {}

  /** The private key is returned here once and never again: only its hash is kept. */
  async create(
    tenantSlug: string,
    roleName: string,
    name?: string,
  ): Promise<{ uuid: string; public_key: string; private_key: string }> {
    const tenant = await this.tenants.getBySlug(tenantSlug);
    const role = await this.roles.getByName(tenant.uuid, roleName);
    if (name !== undefined && !/^[\w .-]{1,100}$/.test(name)) {
      throw ValidationFailedError.single('name', 'invalid_format', 'name must be 1 to 100 word characters');
    }
    const publicKey = `pk_${randomBytes(12).toString('hex')}`;
    const privateKey = `sk_${randomBytes(32).toString('base64url')}`;
    const apiKey = this.apiKeys.create({
      uuid: randomUUID(),
      tenantUuid: tenant.uuid,
      name: name ?? publicKey,
      publicKey,
      secretHash: await this.hasher.hash(privateKey),
      roleUuid: role.uuid,
      revokedAt: null,
    });
    await this.apiKeys.save(apiKey);
    return { uuid: apiKey.uuid, public_key: publicKey, private_key: privateKey };
  }

  async list(tenantSlug: string): Promise<ApiKeyView[]> {
    const tenant = await this.tenants.getBySlug(tenantSlug);
    const [keys, roles] = await Promise.all([
      this.apiKeys.find({ where: { tenantUuid: tenant.uuid }, order: { createdAt: 'ASC' } }),
      this.roles.list(tenantSlug),
    ]);
    const roleNames = new Map(roles.map((role) => [role.uuid, role.name]));
    return keys.map((key) => this.toView(key, roleNames.get(key.roleUuid) ?? ''));
  }

  findForLogin(tenantUuid: string, publicKey: string): Promise<ApiKeyEntity | null> {
    return this.apiKeys.findOneBy({ tenantUuid, publicKey });
  }

  findByUuid(uuid: string): Promise<ApiKeyEntity | null> {
    return this.apiKeys.findOneBy({ uuid });
  }

  async update(
    tenantSlug: string,
    publicKey: string,
    change: { revoked?: boolean; roleName?: string },
  ): Promise<ApiKeyView> {
    const tenant = await this.tenants.getBySlug(tenantSlug);
    const apiKey = await this.findForLogin(tenant.uuid, publicKey);
    if (!apiKey) throw new NotFoundError(`API key ${publicKey}`);
    // Revocation is final: a leaked key must not come back by mistake. It, or another role, ends the key's tokens.
    let revokes = change.revoked === true;
    if (change.revoked) apiKey.revokedAt ??= new Date();
    let roleName = '';
    if (change.roleName !== undefined) {
      const role = await this.roles.getByName(tenant.uuid, change.roleName);
      revokes ||= role.uuid !== apiKey.roleUuid;
      apiKey.roleUuid = role.uuid;
    }
    await this.revocations.changeAndRevoke(
      tenant.uuid,
      (manager) => manager.save(apiKey),
      revokes ? [apiKey.uuid] : [],
    );
    roleName = (await this.roles.findByUuid(apiKey.roleUuid))?.name ?? roleName;
    return this.toView(apiKey, roleName);
  }

  private toView(key: ApiKeyEntity, role: string): ApiKeyView {
    return {
      uuid: key.uuid,
      name: key.name,
      public_key: key.publicKey,
      role,
      revoked: key.revokedAt !== null,
    };
  }
}
