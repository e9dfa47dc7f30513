import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AuthSubjects, type ListRevocationsRequest, type RevocationPage } from '@cpc/contracts';
import { AccountRevocationsService } from './account-revocations.service.js';

@Controller()
export class RevocationsController {
  constructor(private readonly revocations: AccountRevocationsService) {}

  /** The api-gateways' poll: what was revoked since their last one. */
  @MessagePattern(AuthSubjects.listRevocations)
  list(@Payload() request: ListRevocationsRequest): Promise<RevocationPage> {
    return this.revocations.page(request);
  }
}
