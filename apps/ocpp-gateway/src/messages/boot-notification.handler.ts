import { Inject, Injectable } from '@nestjs/common';
import { type ChargePointBootedEvent, ChargePointEventSubjects } from '@cpc/contracts';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { ChargePointEventPublisher, type EventFields } from '../events/charge-point-event.publisher.js';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';

interface BootNotification16 {
  chargePointVendor: string;
  chargePointModel: string;
  chargePointSerialNumber?: string;
  chargeBoxSerialNumber?: string;
  firmwareVersion?: string;
}

interface BootNotification201 {
  chargingStation: { vendorName: string; model: string; serialNumber?: string; firmwareVersion?: string };
}

/** Every charge point that authenticated is accepted; its vendor, model, serial and firmware go to the controller. */
@Injectable()
export class BootNotificationHandler implements ChargePointMessageHandler {
  readonly actions = { 'ocpp1.6': ['BootNotification'], 'ocpp2.0.1': ['BootNotification'] } as const;

  constructor(
    private readonly events: ChargePointEventPublisher,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
  ) {}

  async handle(connection: ChargePointConnection, _action: string, payload: unknown): Promise<object> {
    await this.events.publish<ChargePointBootedEvent>(
      ChargePointEventSubjects.booted,
      connection,
      connection.protocol === 'ocpp1.6'
        ? bootInfo16(payload as BootNotification16)
        : bootInfo201(payload as BootNotification201),
    );
    return {
      status: 'Accepted',
      currentTime: new Date().toISOString(),
      interval: this.config.heartbeatIntervalSeconds,
    };
  }
}

function bootInfo16(boot: BootNotification16): EventFields<ChargePointBootedEvent> {
  return {
    vendor: boot.chargePointVendor,
    model: boot.chargePointModel,
    // chargeBoxSerialNumber is deprecated in 1.6 but still what many older charge points fill in.
    serialNumber: boot.chargePointSerialNumber ?? boot.chargeBoxSerialNumber ?? null,
    firmwareVersion: boot.firmwareVersion ?? null,
  };
}

function bootInfo201(boot: BootNotification201): EventFields<ChargePointBootedEvent> {
  const station = boot.chargingStation;
  return {
    vendor: station.vendorName,
    model: station.model,
    serialNumber: station.serialNumber ?? null,
    firmwareVersion: station.firmwareVersion ?? null,
  };
}
