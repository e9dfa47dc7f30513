import { Module } from '@nestjs/common';
import { AssetRequests } from '../assets/asset-requests.js';
import { AuthorizationDecisionsController } from './authorization-decisions.controller.js';
import { IdTokenImportController, IdTokensController } from './id-tokens.controller.js';

/** `/api/v1/authorization/...`: drivers' id tokens and the decision log (kept by assets-service). */
@Module({
  controllers: [IdTokensController, IdTokenImportController, AuthorizationDecisionsController],
  providers: [AssetRequests],
})
export class AuthorizationRoutesModule {}
