import type { ApiTestClient } from './api-test-client.js';
import { OCPP_PASSWORD } from './assets-builder.js';
import { eventually } from './eventually.js';
import { type ChargePoint, ocppChargePoint } from './ocpp-test-client.js';

export interface OnlineChargePointOptions {
  ocppUrl: string;
  api: ApiTestClient;
  /** A token that may read the controller. */
  token: string;
  controller: { uuid: string; ocpp_identity: string };
  protocol: string;
  /** Default `acme`. */
  tenantSlug?: string;
}

/**
 * Connects a strict OCPP client as the controller's charge point (with the builders' OCPP password) and waits until
 * the API shows the controller online, so commands sent next find it.
 */
export async function onlineChargePoint(options: OnlineChargePointOptions): Promise<ChargePoint> {
  const cp = ocppChargePoint({
    ocppUrl: options.ocppUrl,
    tenantSlug: options.tenantSlug ?? 'acme',
    identity: options.controller.ocpp_identity,
    password: OCPP_PASSWORD,
    protocols: [options.protocol],
  });
  await cp.connect();
  await eventually(
    () =>
      options.api.call('GET', `/api/v1/assets/controllers/${options.controller.uuid}`, {
        token: options.token,
      }),
    (response) => response.body.controller?.connection_status === 'online',
  );
  return cp;
}
