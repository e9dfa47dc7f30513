import { nonceOfCall } from './command-plan.js';

export type SimulatedProtocol = 'ocpp1.6' | 'ocpp2.0.1';

/** The command status the platform must give a command after this answer. */
export type ExpectedStatus = 'accepted' | 'rejected';

export interface ChargePointAnswer {
  response: Record<string, unknown>;
  expected: ExpectedStatus;
}

/** Every fifth command is refused, so both outcomes travel back through the platform. */
export function refuses(nonce: number | undefined): boolean {
  return nonce !== undefined && nonce % 5 === 0;
}

function withStatus(accepted: boolean, refusal = 'Rejected'): ChargePointAnswer {
  return accepted
    ? { response: { status: 'Accepted' }, expected: 'accepted' }
    : { response: { status: refusal }, expected: 'rejected' };
}

/**
 * A valid answer (official schemas of the version) to any call the fault test's commands become, accepting or
 * refusing it as `refuses` says, with the status the platform must derive from it (docs/spec/ocpp-mapping.md).
 */
export function answerCall(protocol: SimulatedProtocol, action: string, payload: unknown): ChargePointAnswer {
  const nonce = nonceOfCall(action, payload);
  const accept = !refuses(nonce);
  switch (action) {
    case 'UpdateFirmware':
      // 1.6 UpdateFirmware.conf is empty: any valid reply means accepted.
      return protocol === 'ocpp1.6' ? { response: {}, expected: 'accepted' } : withStatus(accept);
    case 'GetDiagnostics':
      return accept
        ? { response: { fileName: `diagnostics-F${nonce}.log` }, expected: 'accepted' }
        : { response: {}, expected: 'rejected' };
    case 'ClearChargingProfile':
      return withStatus(accept, 'Unknown');
    default:
      // RemoteStart/RequestStart, ReserveNow, SetChargingProfile, CancelReservation: a plain status.
      return withStatus(accept);
  }
}
