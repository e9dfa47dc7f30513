import { Inject, Injectable } from '@nestjs/common';
import {
  AuthorizationSubjects,
  type LocalListAnsweredRequest,
  type LocalListPage,
  type LocalListPageRequest,
  type OcppCallRequest,
} from '@cpc/contracts';
import { ServiceClient } from '@cpc/nats';
import {
  localListParts,
  type LocalListUpdate,
  type LocalListUpdateType,
  parseCommandRequest,
  type SendLocalListParameters,
} from '@cpc/ocpp-commands';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';

/** A send_local_list's stored parameters, normalized; undefined when they do not validate (the build says why). */
export function sendLocalListParameters(request: OcppCallRequest): SendLocalListParameters | undefined {
  if (request.type !== 'send_local_list') return undefined;
  const parsed = parseCommandRequest({
    type: 'send_local_list',
    target_type: 'controller',
    parameters: request.parameters,
  });
  return parsed.ok ? (parsed.command.parameters as SendLocalListParameters) : undefined;
}

/**
 * The local list a send_local_list delivers, as assets-service prepares it for the command
 * (AuthorizationSubjects.localListPage): version, tokens and removals, read page by page, and the parts (one
 * SendLocalList each) the charge point takes them in.
 */
@Injectable()
export class LocalListSource {
  constructor(
    private readonly services: ServiceClient,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
  ) {}

  /**
   * Tells assets-service how many parts of the update the charge point accepted (the list they leave becomes the
   * controller's) and whether more will go out.
   */
  async answered(
    connection: ChargePointConnection,
    commandUuid: string,
    acceptedParts: number,
    final: boolean,
  ): Promise<void> {
    await this.services.request<unknown, LocalListAnsweredRequest>(AuthorizationSubjects.localListAnswered, {
      tenantUuid: connection.tenantUuid,
      commandUuid,
      acceptedParts,
      final,
    });
  }

  /**
   * The update as the SendLocalList messages that carry it, in order (localListParts).
   *
   * @throws DomainError not_found when the tenant no longer has the controller; NATS errors as they come.
   */
  async prepare(
    connection: ChargePointConnection,
    commandUuid: string,
    parameters: SendLocalListParameters,
    updateType: LocalListUpdateType = parameters.update_type,
  ): Promise<LocalListUpdate[]> {
    const update: {
      listVersion: number;
      tokens: LocalListPage['tokens'];
      removals: LocalListPage['removals'];
      partEnds: number[];
    } = {
      listVersion: 0,
      tokens: [],
      removals: [],
      partEnds: [],
    };
    let offset: number | null = 0;
    while (offset !== null) {
      const page: LocalListPage = await this.services.request<LocalListPage, LocalListPageRequest>(
        AuthorizationSubjects.localListPage,
        {
          tenantUuid: connection.tenantUuid,
          controllerUuid: connection.controllerUuid,
          commandUuid,
          updateType,
          idTokenUuids: parameters.id_token_uuids ?? null,
          protocol: connection.protocol,
          offset,
          limit: this.config.tuning.localListPageSize,
        },
      );
      update.listVersion = page.listVersion;
      update.tokens.push(...page.tokens);
      update.removals.push(...page.removals);
      update.partEnds = page.partEnds;
      offset = page.nextOffset;
    }
    const whole: LocalListUpdate = {
      listVersion: update.listVersion,
      updateType,
      tokens: update.tokens,
      removals: updateType === 'differential' ? update.removals : undefined,
    };
    return localListParts(whole, update.partEnds);
  }
}
