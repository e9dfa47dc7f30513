import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AuthorizationSubjects,
  type IdTokensExistPayload,
  type IdTokensExistResponse,
  type LocalListAnsweredRequest,
  type LocalListPage,
  type LocalListPageRequest,
  type TenantScopedRequest,
} from '@cpc/contracts';
import { LocalListsService } from './local-lists.service.js';

/** NATS handler of local authorization lists (the ocpp-gateway's requests; the tenant is named by the gateway). */
@Controller()
export class LocalListsHandler {
  constructor(private readonly lists: LocalListsService) {}

  @MessagePattern(AuthorizationSubjects.localListPage)
  page(@Payload() request: LocalListPageRequest): Promise<LocalListPage> {
    return this.lists.page(request);
  }

  @MessagePattern(AuthorizationSubjects.localListAnswered)
  async answered(@Payload() request: LocalListAnsweredRequest): Promise<Record<string, never>> {
    await this.lists.answered(
      request?.tenantUuid,
      request?.commandUuid,
      Number(request?.acceptedParts) || 0,
      request?.final !== false,
    );
    return {};
  }

  @MessagePattern(AuthorizationSubjects.idTokensExist)
  async exist(@Payload() request: TenantScopedRequest<IdTokensExistPayload>): Promise<IdTokensExistResponse> {
    return { exists: await this.lists.exist(request.principal.tenantUuid, request.payload?.uuids) };
  }
}
