import { createPrivateKey, generateKeyPair, type KeyObject, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { SigningPublicKey } from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { DataSource, MoreThan, type Repository } from 'typeorm';
import { AUTH_CONFIG } from '../auth-config.token.js';
import type { AuthServiceConfig } from '../auth-service.config.js';
import { SigningKeyChangePublisher } from './signing-key-change-publisher.js';
import { SigningKeyCipher } from './signing-key-cipher.js';
import { SigningKeyEntity } from './signing-key.entity.js';

export interface ActiveSigningKey {
  kid: string;
  privateKey: KeyObject;
}

export interface SigningKeyView {
  kid: string;
  algorithm: string;
  status: string;
  created_at: string;
  retired_at: string | null;
  revoked_at: string | null;
}

function generateRsaKeyPair(): Promise<{ publicKey: string; privateKey: string }> {
  return new Promise((resolve, reject) =>
    generateKeyPair(
      'rsa',
      {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (error, publicKey, privateKey) => (error ? reject(error) : resolve({ publicKey, privateKey })),
    ),
  );
}

@Injectable()
export class SigningKeysService {
  private readonly logger = new Logger(SigningKeysService.name);
  private readonly cipher: SigningKeyCipher;
  private activeKeyCache: { key: ActiveSigningKey; loadedAt: number } | undefined;

  constructor(
    @InjectRepository(SigningKeyEntity) private readonly keys: Repository<SigningKeyEntity>,
    private readonly dataSource: DataSource,
    private readonly changePublisher: SigningKeyChangePublisher,
    @Inject(AUTH_CONFIG) private readonly config: AuthServiceConfig,
  ) {
    this.cipher = new SigningKeyCipher(config.signingKeyEncryptionSecret);
  }

  /** Start-up of a new platform: there is no key yet. */
  async ensureActiveKey(): Promise<void> {
    if (await this.keys.existsBy({ status: 'active' })) return;
    try {
      await this.insertActiveKey(this.keys, await generateRsaKeyPair());
      this.logger.log('created the first signing key');
    } catch (error) {
      // Two instances starting together: the unique index lets one win.
      if (!(await this.keys.existsBy({ status: 'active' }))) throw error;
    }
  }

  /** New signing key; the previous one keeps verifying until tokens it signed have expired. */
  async rotate(): Promise<SigningKeyView> {
    const pair = await generateRsaKeyPair();
    const created = await this.dataSource.transaction(async (manager) => {
      await manager.update(
        SigningKeyEntity,
        { status: 'active' },
        { status: 'retired', retiredAt: new Date() },
      );
      return this.insertActiveKey(manager.getRepository(SigningKeyEntity), pair);
    });
    this.activeKeyCache = undefined;
    await this.changePublisher.publish({ reason: 'rotated', kid: created.kid });
    return this.toView(created);
  }

  /**
   * Tokens signed with a revoked key are refused at once; revoking the active key also rotates, in the same
   * transaction, so that there is an active key at every moment (the pair is made before, not while the row is locked).
   */
  async revoke(kid: string): Promise<SigningKeyView> {
    const found = await this.keys.findOneBy({ kid });
    if (!found) throw new NotFoundError(`signing key ${kid}`);
    // A key is active only from its insert on: one that is not active now never is again, and needs no new pair.
    const pair = found.status === 'active' ? await generateRsaKeyPair() : null;
    const key = await this.dataSource.transaction(async (manager) => {
      const locked = await manager.findOne(SigningKeyEntity, {
        where: { kid },
        lock: { mode: 'pessimistic_write' },
      });
      if (!locked) throw new NotFoundError(`signing key ${kid}`);
      const wasActive = locked.status === 'active';
      locked.status = 'revoked';
      locked.revokedAt ??= new Date();
      await manager.save(locked);
      if (wasActive) {
        const repository = manager.getRepository(SigningKeyEntity);
        await this.insertActiveKey(repository, pair ?? (await generateRsaKeyPair()));
      }
      return locked;
    });
    this.activeKeyCache = undefined;
    await this.changePublisher.publish({ reason: 'revoked', kid });
    return this.toView(key);
  }

  async list(): Promise<SigningKeyView[]> {
    return (await this.keys.find({ order: { createdAt: 'ASC' } })).map((key) => this.toView(key));
  }

  /** Keys a token may still be verified with: the active one and those retired within one token lifetime. */
  async verificationKeys(): Promise<SigningPublicKey[]> {
    const retiredSince = new Date(
      Date.now() -
        (this.config.accessTokenTtlSeconds + this.config.tuning.retiredSigningKeyGraceSeconds) * 1000,
    );
    const keys = await this.keys.find({
      where: [{ status: 'active' }, { status: 'retired', retiredAt: MoreThan(retiredSince) }],
      order: { createdAt: 'DESC' },
    });
    return keys.map((key) => ({ kid: key.kid, alg: 'RS256', publicKeyPem: key.publicKeyPem }));
  }

  async activeKey(): Promise<ActiveSigningKey> {
    const cached = this.activeKeyCache;
    if (cached && Date.now() - cached.loadedAt < this.config.tuning.activeSigningKeyCacheMs)
      return cached.key;
    const entity = await this.keys.findOneBy({ status: 'active' });
    if (!entity) throw new Error('no active signing key');
    const key = {
      kid: entity.kid,
      privateKey: createPrivateKey(this.cipher.decrypt(entity.privateKeyCiphertext)),
    };
    this.activeKeyCache = { key, loadedAt: Date.now() };
    return key;
  }

  forgetCachedKey(): void {
    this.activeKeyCache = undefined;
  }

  private insertActiveKey(
    repository: Repository<SigningKeyEntity>,
    pair: { publicKey: string; privateKey: string },
  ): Promise<SigningKeyEntity> {
    return repository.save(
      repository.create({
        kid: randomUUID(),
        algorithm: 'RS256',
        publicKeyPem: pair.publicKey,
        privateKeyCiphertext: this.cipher.encrypt(pair.privateKey),
        status: 'active',
        retiredAt: null,
        revokedAt: null,
      }),
    );
  }

  private toView(key: SigningKeyEntity): SigningKeyView {
    return {
      kid: key.kid,
      algorithm: key.algorithm,
      status: key.status,
      created_at: key.createdAt.toISOString(),
      retired_at: key.retiredAt?.toISOString() ?? null,
      revoked_at: key.revokedAt?.toISOString() ?? null,
    };
  }
}
