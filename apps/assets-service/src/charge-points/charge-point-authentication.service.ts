import { Injectable, Logger } from '@nestjs/common';
import {
  type AuthenticateChargePointRequest,
  type AuthenticateChargePointResponse,
  ErrorCode,
  PASSWORD_SECURITY_PROFILES,
  UUID_PATTERN,
} from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { DomainError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { type HandshakeController, upgradePasswordHash } from './charge-point-authentication.repository.js';
import { HandshakeControllerLookup } from './handshake-controller.lookup.js';
import { type HandshakeAttempt, HandshakeFailureCounters } from './handshake-failure.counters.js';
import { OcppPasswordHasher } from './ocpp-password-hasher.js';
import { PasswordCheckCapacity } from './password-check.capacity.js';
import { VerifiedPasswordCache } from './verified-password.cache.js';

/** Longer than any identity (48) or address (45) can be: such a request is refused without any work. */
const MAX_FIELD_LENGTH = 100;

function invalidCredentials(): DomainError {
  return new DomainError(ErrorCode.InvalidCredentials, 'invalid charge point credentials');
}

function isInvalidCredentials(error: unknown): boolean {
  return error instanceof DomainError && error.code === ErrorCode.InvalidCredentials;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function rateLimited(): DomainError {
  return new DomainError(
    ErrorCode.RateLimited,
    'too many failed handshakes for this charge point, try again later',
  );
}

/**
 * Checks a charge point's credentials for the ocpp-gateway. An unknown identity, a missing password and a wrong one
 * all answer the same invalid_credentials after the same scrypt work, so a caller learns nothing about which
 * identities exist. Each attempt whose password is to be checked first takes a failure slot (HandshakeFailureCounters)
 * and only then checks it, inside the bounded PasswordCheckCapacity; one with nothing to check (no password in its
 * profile, or the one verified before) is answered from the controller alone.
 */
@Injectable()
export class ChargePointAuthenticationService {
  private readonly logger = new Logger(ChargePointAuthenticationService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly counters: HandshakeFailureCounters,
    private readonly hasher: OcppPasswordHasher,
    private readonly capacity: PasswordCheckCapacity,
    private readonly verifiedPasswords: VerifiedPasswordCache,
    private readonly controllers: HandshakeControllerLookup,
  ) {}

  async authenticate(request: AuthenticateChargePointRequest): Promise<AuthenticateChargePointResponse> {
    const attempt = this.attemptOf(request);
    if (!attempt) throw invalidCredentials();
    const password = typeof request.password === 'string' ? request.password : undefined;
    const controller = await this.controllers.find(attempt);
    // Nothing to guess (a profile without a password, or the password this process verified against today's hash):
    // accepted without a scrypt run or the failure counters, so a reconnect storm queues behind neither. Earlier
    // failures of the address stay counted until their window ends.
    if (controller !== null && !this.needsPasswordCheck(controller, password))
      return this.acceptedAs(controller);
    // The slot comes before the check: one statement, and an attempt over the limit never waits for scrypt capacity.
    if (!(await this.counters.take(attempt))) throw rateLimited();
    try {
      return await this.capacity.run(() => this.checkPassword(attempt, controller, password));
    } catch (error) {
      // Only a wrong password is a failure; an attempt that could not be checked (no capacity, database trouble)
      // gives its slots back.
      if (!isInvalidCredentials(error)) {
        await this.counters
          .giveBack(attempt)
          .catch((giveBackError: unknown) =>
            this.logger.warn(`could not give back a handshake failure slot: ${messageOf(giveBackError)}`),
          );
      }
      throw error;
    }
  }

  /** false for profiles without a password, and for a password this process verified against today's hash. */
  private needsPasswordCheck(controller: HandshakeController, password: string | undefined): boolean {
    if (!PASSWORD_SECURITY_PROFILES.includes(controller.securityProfile)) return false;
    return !(
      controller.ocppPasswordHash &&
      password !== undefined &&
      this.verifiedPasswords.matches(controller.uuid, controller.ocppPasswordHash, password)
    );
  }

  private async checkPassword(
    attempt: HandshakeAttempt,
    controller: HandshakeController | null,
    password: string | undefined,
  ): Promise<AuthenticateChargePointResponse> {
    const storedHash = controller?.ocppPasswordHash ?? (await this.hasher.decoyHash());
    const matches = await this.hasher.verify(password ?? '', storedHash);
    if (!controller?.ocppPasswordHash || password === undefined || !matches) throw invalidCredentials();
    const currentHash = await this.upgradeHash(controller.uuid, controller.ocppPasswordHash, password);
    this.verifiedPasswords.remember(controller.uuid, currentHash, password);
    return this.accept(attempt, controller);
  }

  /** A checked password was right: the attempt was no failure, and the address's earlier ones are forgiven. */
  private async accept(
    attempt: HandshakeAttempt,
    controller: HandshakeController,
  ): Promise<AuthenticateChargePointResponse> {
    await this.counters.forgive(attempt);
    return this.acceptedAs(controller);
  }

  private acceptedAs(controller: HandshakeController): AuthenticateChargePointResponse {
    return {
      controllerUuid: controller.uuid,
      ocppIdentity: controller.ocppIdentity,
      securityProfile: controller.securityProfile,
      credentialsVersion: controller.credentialsVersion,
      locationUuid: controller.locationUuid,
    };
  }

  private attemptOf(request: AuthenticateChargePointRequest | undefined): HandshakeAttempt | undefined {
    const identity = request?.ocppIdentity;
    const tenantUuid = request?.tenantUuid;
    if (typeof tenantUuid !== 'string' || !UUID_PATTERN.test(tenantUuid)) return undefined;
    if (typeof identity !== 'string' || identity.length === 0 || identity.length > MAX_FIELD_LENGTH)
      return undefined;
    // PostgreSQL's text cannot hold NUL: no controller has such an identity, and no counter can be kept for it.
    if (identity.includes('\u0000')) return undefined;
    const address =
      typeof request?.remoteAddress === 'string' && request.remoteAddress.length <= MAX_FIELD_LENGTH
        ? request.remoteAddress
        : 'unknown';
    return { tenantUuid: tenantUuid.toLowerCase(), identity, address };
  }

  /**
   * A hash made with older scrypt parameters is replaced by one with today's, now that the password is known; only
   * if nobody changed the password meanwhile. A failure here costs the charge point nothing. Returns the hash stored
   * now.
   */
  private async upgradeHash(controllerUuid: string, stored: string, password: string): Promise<string> {
    if (!this.hasher.needsUpgrade(stored)) return stored;
    try {
      const upgraded = await this.hasher.hash(password);
      const updated = await runStatement(this.dataSource, upgradePasswordHash, {
        upgradedHash: upgraded,
        controllerUuid,
        storedHash: stored,
      });
      return updated.length === 1 ? upgraded : stored;
    } catch (error) {
      this.logger.warn(
        `could not rehash the OCPP password of controller ${controllerUuid}: ${messageOf(error)}`,
      );
      return stored;
    }
  }
}
