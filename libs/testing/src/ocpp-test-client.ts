import ocppRpc from 'ocpp-rpc';

const { RPCClient } = ocppRpc;
const { createRPCError } = ocppRpc as unknown as {
  createRPCError: (type: string, message?: string) => Error;
};

/** ocpp-rpc's client, with everything it offers (events, raw sends, states). */
export type OcppTestClient = InstanceType<typeof RPCClient>;

/** The side of the client most tests use, typed tighter than ocpp-rpc's own typings. */
export interface ChargePoint {
  connect(): Promise<unknown>;
  call(action: string, payload: unknown): Promise<unknown>;
  close(options?: { force?: boolean; code?: number; reason?: string }): Promise<unknown>;
  once(event: 'close', listener: (info: { code: number }) => void): void;
  /** Answers the platform's calls of `method`; a thrown RPC error (createRpcError) becomes a CALLERROR. */
  handle(method: string, handler: (call: { method: string; params: unknown }) => unknown): void;
}

export interface OcppTestClientOptions {
  /** Where the gateway listens, `ws://127.0.0.1:<port>` (or `wss://`); the client adds `/ocpp/<tenant>/<identity>`. */
  ocppUrl: string;
  tenantSlug: string;
  identity: string;
  /** HTTP Basic password; null or absent sends none. */
  password?: string | null;
  protocols: readonly string[];
  /** Default true: validates what it sends and receives against the OCPP schemas; false lets a test break them. */
  strict?: boolean;
  /** Extra headers of the upgrade request (what an ingress adds). */
  headers?: Record<string, string>;
  /** Local address to connect from (127.0.0.2, 127.0.0.3, ... where the address matters). */
  localAddress?: string;
  /** Options for the `ws` socket (TLS settings and the like). */
  wsOpts?: Record<string, unknown>;
}

/** A real OCPP-J client (ocpp-rpc), strict like a well-behaved charge point, that does not reconnect by itself. */
export function ocppTestClient(options: OcppTestClientOptions): OcppTestClient {
  return new RPCClient({
    endpoint: `${options.ocppUrl}/ocpp/${encodeURIComponent(options.tenantSlug)}`,
    identity: options.identity,
    password: options.password ?? null,
    protocols: [...options.protocols],
    strictMode: options.strict ?? true,
    reconnect: false,
    callTimeoutMs: 10_000,
    headers: options.headers ?? {},
    wsOpts: { ...(options.localAddress ? { localAddress: options.localAddress } : {}), ...options.wsOpts },
  } as unknown as ConstructorParameters<typeof RPCClient>[0]);
}

/** The same client seen through the narrower ChargePoint type. */
export function ocppChargePoint(options: OcppTestClientOptions): ChargePoint {
  return ocppTestClient(options) as unknown as ChargePoint;
}

/** An OCPP-J CALLERROR with that code (e.g. `NotSupported`), thrown from a handler. */
export const createRpcError: (type: string, message?: string) => Error = createRPCError;
