import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AuthenticateChargePointRequest,
  type AuthenticateChargePointResponse,
  AssetsSubjects,
  ErrorCode,
  PASSWORD_SECURITY_PROFILES,
  UUID_PATTERN,
} from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { ControllerEntity } from '../entities/index.js';
import { decoyPasswordHash, verifyOcppPassword } from './password-hash.js';

function invalidCredentials(): DomainError {
  return new DomainError(ErrorCode.InvalidCredentials, 'invalid charge point credentials');
}

/**
 * Asked by the ocpp-gateway before it accepts a charge point's WebSocket upgrade. An unknown identity, a missing
 * password and a wrong one all answer the same invalid_credentials after the same scrypt work, so a caller learns
 * nothing about which identities exist.
 */
@Controller()
export class ChargePointAuthenticationHandler {
  constructor(private readonly dataSource: DataSource) {}

  @MessagePattern(AssetsSubjects.authenticateChargePoint)
  async authenticate(
    @Payload() request: AuthenticateChargePointRequest,
  ): Promise<AuthenticateChargePointResponse> {
    const identity = typeof request?.ocppIdentity === 'string' ? request.ocppIdentity : '';
    const password = typeof request?.password === 'string' ? request.password : undefined;
    const controller =
      typeof request?.tenantUuid === 'string' && UUID_PATTERN.test(request.tenantUuid) && identity.length > 0
        ? await this.dataSource
            .getRepository(ControllerEntity)
            .createQueryBuilder('controller')
            .where('controller.tenantUuid = :tenantUuid', { tenantUuid: request.tenantUuid })
            .andWhere('lower(controller.ocppIdentity) = lower(:identity)', { identity })
            .getOne()
        : null;

    const needsPassword =
      controller === null || PASSWORD_SECURITY_PROFILES.includes(controller.securityProfile);
    if (needsPassword) {
      const storedHash = controller?.ocppPasswordHash ?? (await decoyPasswordHash());
      const matches = await verifyOcppPassword(password ?? '', storedHash);
      if (!controller?.ocppPasswordHash || password === undefined || !matches) throw invalidCredentials();
    }
    return {
      controllerUuid: controller.uuid,
      ocppIdentity: controller.ocppIdentity,
      securityProfile: controller.securityProfile,
      credentialsVersion: controller.credentialsVersion,
    };
  }
}
