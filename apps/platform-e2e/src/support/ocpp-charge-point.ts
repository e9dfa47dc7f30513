import ocppRpc from 'ocpp-rpc';

/** The side of ocpp-rpc's RPCClient the end-to-end tests use. */
export interface ChargePoint {
  connect(): Promise<unknown>;
  call(action: string, payload: unknown): Promise<unknown>;
  close(options?: { force?: boolean }): Promise<unknown>;
  once(event: 'close', listener: (info: { code: number }) => void): void;
  /** Answers the platform's calls of `method`; a thrown RPC error (createRpcError) becomes a CALLERROR. */
  handle(method: string, handler: (call: { method: string; params: unknown }) => unknown): void;
}

const { RPCClient, createRPCError } = ocppRpc as unknown as {
  RPCClient: new (options: Record<string, unknown>) => ChargePoint;
  createRPCError: (type: string, message?: string) => Error;
};

/** An OCPP-J CALLERROR with that code (e.g. `NotSupported`), thrown from a handler. */
export const createRpcError: (type: string, message?: string) => Error = createRPCError;

/** A real, strict OCPP-J charge point of tenant `tenantSlug` that does not reconnect by itself. */
export function ocppChargePoint(options: {
  ocppUrl: string;
  tenantSlug: string;
  identity: string;
  password: string;
  protocol: string;
}): ChargePoint {
  return new RPCClient({
    endpoint: `${options.ocppUrl}/ocpp/${options.tenantSlug}`,
    identity: options.identity,
    password: options.password,
    protocols: [options.protocol],
    strictMode: true,
    reconnect: false,
    callTimeoutMs: 10_000,
  });
}
