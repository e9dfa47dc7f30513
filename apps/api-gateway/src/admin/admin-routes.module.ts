import { Module } from '@nestjs/common';
import { AssetRequests } from '../assets/asset-requests.js';
import { AdminRequests } from './admin-requests.js';
import { ApiKeysController } from './api-keys.controller.js';
import { AuditEventsController } from './audit-events.controller.js';
import { RolesController } from './roles.controller.js';
import { UsersController } from './users.controller.js';

/** `/api/v1/admin/...`: a tenant's users, roles, API keys and their audit log, all owned by auth-service. */
@Module({
  controllers: [UsersController, RolesController, ApiKeysController, AuditEventsController],
  providers: [AssetRequests, AdminRequests],
})
export class AdminRoutesModule {}
