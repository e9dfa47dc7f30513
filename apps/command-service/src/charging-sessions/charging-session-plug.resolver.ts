import { Injectable } from '@nestjs/common';
import { PlugOfConnectorLookup, ServiceClient } from '@cpc/nats';

/** The plug of a session's connector (see PlugOfConnectorLookup), asked as command-service. */
@Injectable()
export class ChargingSessionPlugResolver extends PlugOfConnectorLookup {
  constructor(services: ServiceClient) {
    super(services, 'command-service');
  }
}
