import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { HealthModule } from '@cpc/health';
import { MetricsModule } from '@cpc/metrics';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  NATS_CONNECTION,
  NatsConnectionModule,
  NatsHealthIndicator,
  NatsRpcClientModule,
  ServiceClient,
} from '@cpc/nats';
import { AdminRoutesModule } from './admin/admin-routes.module.js';
import { API_GATEWAY_CONFIG, type ApiGatewayConfig } from './api-gateway.config.js';
import { AssetsRoutesModule } from './assets/assets-routes.module.js';
import { AuthorizationRoutesModule } from './authorization/authorization-routes.module.js';
import { AccessTokenGuard } from './authentication/access-token.guard.js';
import { AccessTokenStrategy } from './authentication/access-token.strategy.js';
import { PermissionGuard } from './authentication/permission.guard.js';
import { RevocationList } from './authentication/revocation-list.js';
import { RouteAccess } from './authentication/route-access.js';
import { SigningKeyCache } from './authentication/signing-key-cache.js';
import { VerifiedTokenCache } from './authentication/verified-token-cache.js';
import { ChargingSessionsRoutesModule } from './charging-sessions/charging-sessions-routes.module.js';
import { ReservationsRoutesModule } from './reservations/reservations-routes.module.js';
import { CommandsRoutesModule } from './commands/commands-routes.module.js';
import { ApiExceptionFilter } from './http-pipeline/api-exception.filter.js';
import { HttpRequestMetrics } from './http-pipeline/http-request.metrics.js';
import { RequestIdInterceptor } from './http-pipeline/request-id.interceptor.js';
import { TracingShutdown } from '@cpc/tracing';
import { RequestValidationPipe } from './http-pipeline/request-validation.pipe.js';
import { RouteMethods } from './http-pipeline/route-methods.js';
import { OAuthTokenController } from './oauth/oauth-token.controller.js';
import { SubjectRateLimitGuard } from './rate-limiting/subject-rate-limit.guard.js';
import { KvWindowBudgetStore } from './rate-limiting/kv-window-budget.store.js';
import { SubjectRequestBudgets, WINDOW_BUDGET_STORE } from './rate-limiting/subject-request-budgets.js';
import { WebhooksRoutesModule } from './webhooks/webhooks-routes.module.js';

/**
 * The request pipeline, declared once: request id → bearer token (deny by default, @Public opts out) → permission →
 * per-subject rate limit → validation → handler; every failure through ApiExceptionFilter.
 */
@Module({})
export class ApiGatewayModule {
  static register(config: ApiGatewayConfig, routeMethods: RouteMethods): DynamicModule {
    return {
      module: ApiGatewayModule,
      imports: [
        PassportModule,
        NatsRpcClientModule.register({
          natsUrl: config.natsUrl,
          natsCredentials: config.natsCredentials,
          clientName: 'api-gateway',
          requestTimeoutMs: config.natsRequestTimeoutMs,
        }),
        NatsConnectionModule.register({
          natsUrl: config.natsUrl,
          natsCredentials: config.natsCredentials,
          connectionName: 'api-gateway',
        }),
        HealthModule.register([NatsHealthIndicator]),
        // Its own port (HEALTH_PORT), so /metrics is never part of the public API.
        MetricsModule.register({ on: 'own-port', port: config.healthPort }),
        AssetsRoutesModule,
        AuthorizationRoutesModule,
        ChargingSessionsRoutesModule,
        ReservationsRoutesModule,
        CommandsRoutesModule,
        AdminRoutesModule,
        WebhooksRoutesModule,
      ],
      controllers: [OAuthTokenController],
      providers: [
        { provide: API_GATEWAY_CONFIG, useValue: config },
        { provide: RouteMethods, useValue: routeMethods },
        {
          provide: SigningKeyCache,
          useFactory: (serviceClient: ServiceClient, connection: NatsConnection) =>
            new SigningKeyCache(serviceClient, connection, {
              unknownKidRefetchIntervalMs: config.unknownKidRefetchIntervalSeconds * 1000,
              maxAgeMs: config.tuning.signingKeysMaxAgeMs,
            }),
          inject: [ServiceClient, NATS_CONNECTION],
        },
        {
          provide: RevocationList,
          useFactory: (serviceClient: ServiceClient, connection: NatsConnection) =>
            new RevocationList(serviceClient, connection, {
              pollIntervalMs: config.revocationPollIntervalSeconds * 1000,
              maxStalenessMs: config.revocationMaxStalenessSeconds * 1000,
              pollOverlapMs: config.tuning.revocationPollOverlapMs,
              staleRetryMs: config.tuning.revocationStaleRetryMs,
              firstSyncWaitMs: config.tuning.revocationFirstSyncWaitMs,
              firstSyncRetryMs: config.tuning.revocationFirstSyncRetryMs,
            }),
          inject: [ServiceClient, NATS_CONNECTION],
        },
        {
          provide: VerifiedTokenCache,
          useFactory: (keys: SigningKeyCache) =>
            new VerifiedTokenCache(keys, config.tuning.verifiedTokenCacheSize),
          inject: [SigningKeyCache],
        },
        RouteAccess,
        AccessTokenStrategy,
        {
          provide: WINDOW_BUDGET_STORE,
          useFactory: (connection: NatsConnection) =>
            new KvWindowBudgetStore(connection, config.tuning.rateLimitStoreTimeoutMs),
          inject: [NATS_CONNECTION],
        },
        SubjectRequestBudgets,
        HttpRequestMetrics,
        { provide: APP_GUARD, useClass: AccessTokenGuard },
        { provide: APP_GUARD, useClass: PermissionGuard },
        { provide: APP_GUARD, useClass: SubjectRateLimitGuard },
        { provide: APP_INTERCEPTOR, useClass: RequestIdInterceptor },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        TracingShutdown,
      ],
      exports: [API_GATEWAY_CONFIG],
    };
  }
}
