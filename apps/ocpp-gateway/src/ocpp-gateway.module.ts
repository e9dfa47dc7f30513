import { type DynamicModule, Module } from '@nestjs/common';
import { HealthModule } from '@cpc/health';
import { NatsConnectionModule, NatsHealthIndicator, NatsRpcClientModule } from '@cpc/nats';
import { IdTokenCache } from './authorization/id-token-cache.js';
import { TenantAuthorizationModes } from './authorization/tenant-authorization-modes.js';
import { ChargePointCallSender } from './calls/charge-point-call.sender.js';
import { CommandDeliveryLedger } from './calls/command-delivery.ledger.js';
import { LocalListSender } from './calls/local-list.sender.js';
import { LocalListSource } from './calls/local-list.source.js';
import { OcppCallResponder } from './calls/ocpp-call.responder.js';
import { ChargePointConnectionLifecycle } from './connections/charge-point-connection.lifecycle.js';
import { ChargePointConnectionsRegistry } from './connections/charge-point-connections.registry.js';
import { ChargePointPresenceRegistry } from './connections/charge-point-presence.registry.js';
import { ChargePointKeepAlive } from './connections/charge-point-keep-alive.js';
import { ConnectionTakeoverChannel } from './connections/connection-takeover.channel.js';
import { ControllerChangesListener } from './connections/controller-changes.listener.js';
import { ControllerCredentialRevocations } from './connections/controller-credential-revocations.js';
import { PresenceUpkeep } from './connections/presence-upkeep.js';
import { SecurityProfileTakeoverGuard } from './connections/security-profile-takeover.guard.js';
import { AuthorizationDecisionPublisher } from './events/authorization-decision.publisher.js';
import { ChargePointEventPublisher } from './events/charge-point-event.publisher.js';
import { MeterValuesPublisher } from './events/meter-values.publisher.js';
import { ChargePointHandshakeAuthenticator } from './handshake/charge-point-handshake.authenticator.js';
import { ConcurrentHandshakesLimiter } from './handshake/concurrent-handshakes.limiter.js';
import { TenantSlugResolver } from './handshake/tenant-slug.resolver.js';
import { AcknowledgedNotificationsHandler } from './messages/acknowledged-notifications.handler.js';
import { AuthorizeHandler } from './messages/authorize.handler.js';
import { BootNotificationHandler } from './messages/boot-notification.handler.js';
import { CHARGE_POINT_MESSAGE_HANDLERS } from './messages/charge-point-message.handler.js';
import { DataTransferHandler } from './messages/data-transfer.handler.js';
import { DiagnosticsStatusHandler } from './messages/diagnostics-status.handler.js';
import { FirmwareStatusHandler } from './messages/firmware-status.handler.js';
import { HeartbeatHandler } from './messages/heartbeat.handler.js';
import { IdTokenAuthorizationPolicy } from './messages/id-token-authorization.policy.js';
import { IncomingCallRouter } from './messages/incoming-call.router.js';
import { MeterValues201Handler } from './messages/meter-values-201.handler.js';
import { NotifyReportHandler } from './messages/notify-report.handler.js';
import { Ocpp16TransactionIdAllocator } from './messages/ocpp16-transaction-ids.allocator.js';
import { Ocpp16TransactionsHandler } from './messages/ocpp16-transactions.handler.js';
import { ReservationStatusUpdateHandler } from './messages/reservation-status-update.handler.js';
import { SecurityEventNotificationHandler } from './messages/security-event-notification.handler.js';
import { StatusNotificationHandler } from './messages/status-notification.handler.js';
import { TransactionEventHandler } from './messages/transaction-event.handler.js';
import { OCPP_GATEWAY_CONFIG } from './ocpp-gateway-config.token.js';
import { OcppGatewayMetrics } from './ocpp-gateway.metrics.js';
import type { OcppGatewayConfig } from './ocpp-gateway.config.js';
import { OcppWebSocketServer } from './server/ocpp-websocket.server.js';

const MESSAGE_HANDLERS = [
  BootNotificationHandler,
  HeartbeatHandler,
  StatusNotificationHandler,
  AuthorizeHandler,
  Ocpp16TransactionsHandler,
  TransactionEventHandler,
  MeterValues201Handler,
  FirmwareStatusHandler,
  DiagnosticsStatusHandler,
  SecurityEventNotificationHandler,
  ReservationStatusUpdateHandler,
  NotifyReportHandler,
  DataTransferHandler,
  AcknowledgedNotificationsHandler,
];

/** The ocpp-gateway: no database, no NATS request handlers of Nest's; only the charge points' WebSocket endpoint. */
@Module({})
export class OcppGatewayModule {
  static register(config: OcppGatewayConfig): DynamicModule {
    return {
      module: OcppGatewayModule,
      imports: [
        NatsConnectionModule.register({
          natsUrl: config.natsUrl,
          natsCredentials: config.natsCredentials,
          connectionName: `ocpp-gateway-${config.gatewayInstanceId}`,
        }),
        NatsRpcClientModule.register({
          natsUrl: config.natsUrl,
          natsCredentials: config.natsCredentials,
          clientName: 'ocpp-gateway',
          requestTimeoutMs: config.natsRequestTimeoutMs,
        }),
        HealthModule.register([NatsHealthIndicator]),
      ],
      providers: [
        { provide: OCPP_GATEWAY_CONFIG, useValue: config },
        TenantAuthorizationModes,
        TenantSlugResolver,
        ConcurrentHandshakesLimiter,
        ChargePointHandshakeAuthenticator,
        ChargePointConnectionsRegistry,
        OcppGatewayMetrics,
        ChargePointPresenceRegistry,
        ConnectionTakeoverChannel,
        ControllerCredentialRevocations,
        ControllerChangesListener,
        SecurityProfileTakeoverGuard,
        ChargePointConnectionLifecycle,
        PresenceUpkeep,
        ChargePointKeepAlive,
        ChargePointEventPublisher,
        MeterValuesPublisher,
        IdTokenCache,
        AuthorizationDecisionPublisher,
        IdTokenAuthorizationPolicy,
        Ocpp16TransactionIdAllocator,
        ...MESSAGE_HANDLERS,
        {
          provide: CHARGE_POINT_MESSAGE_HANDLERS,
          useFactory: (...handlers: unknown[]) => handlers,
          inject: MESSAGE_HANDLERS,
        },
        IncomingCallRouter,
        CommandDeliveryLedger,
        ChargePointCallSender,
        OcppCallResponder,
        LocalListSource,
        LocalListSender,
        OcppWebSocketServer,
      ],
    };
  }
}
