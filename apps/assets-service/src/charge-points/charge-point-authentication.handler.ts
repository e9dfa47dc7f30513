import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AuthenticateChargePointRequest,
  type AuthenticateChargePointResponse,
  AssetsSubjects,
} from '@cpc/contracts';
import { ChargePointAuthenticationService } from './charge-point-authentication.service.js';

/** Asked by the ocpp-gateway before it accepts a charge point's WebSocket upgrade. */
@Controller()
export class ChargePointAuthenticationHandler {
  constructor(private readonly authentication: ChargePointAuthenticationService) {}

  @MessagePattern(AssetsSubjects.authenticateChargePoint)
  authenticate(@Payload() request: AuthenticateChargePointRequest): Promise<AuthenticateChargePointResponse> {
    return this.authentication.authenticate(request);
  }
}
