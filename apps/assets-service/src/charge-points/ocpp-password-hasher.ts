import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  CHARGE_POINT_AUTHENTICATION_CONFIG,
  type ChargePointAuthenticationConfig,
} from './charge-point-authentication.config.js';
import {
  hashNeedsUpgrade,
  hashOcppPassword,
  type ScryptParameters,
  verifyOcppPassword,
} from './password-hash.js';

/**
 * OCPP passwords hashed with the configured scrypt parameters (OCPP_PASSWORD_SCRYPT_LOG2_N; tests lower it), and
 * a decoy hash of those same parameters for unknown identities, so that they cost the same as a wrong password.
 */
@Injectable()
export class OcppPasswordHasher {
  readonly parameters: ScryptParameters;
  private decoy: Promise<string> | undefined;

  constructor(@Inject(CHARGE_POINT_AUTHENTICATION_CONFIG) config: ChargePointAuthenticationConfig) {
    this.parameters = { N: 2 ** config.scryptLog2N, r: 8, p: 1 };
  }

  hash(password: string): Promise<string> {
    return hashOcppPassword(password, this.parameters);
  }

  verify(password: string, stored: string): Promise<boolean> {
    return verifyOcppPassword(password, stored);
  }

  /** A verified hash made with other parameters is replaced on the next successful handshake. */
  needsUpgrade(stored: string): boolean {
    return hashNeedsUpgrade(stored, this.parameters);
  }

  /** A hash of a random password nobody knows, made once. */
  decoyHash(): Promise<string> {
    this.decoy ??= this.hash(randomBytes(24).toString('base64'));
    return this.decoy;
  }
}
