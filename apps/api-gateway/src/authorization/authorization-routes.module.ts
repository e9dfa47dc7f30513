import { Module } from '@nestjs/common';
import { AssetRequests } from '../assets/asset-requests.js';
import { IdTokenImportController, IdTokensController } from './id-tokens.controller.js';

/** `/api/v1/authorization/...`: drivers' id tokens (kept by assets-service). */
@Module({
  controllers: [IdTokensController, IdTokenImportController],
  providers: [AssetRequests],
})
export class AuthorizationRoutesModule {}
