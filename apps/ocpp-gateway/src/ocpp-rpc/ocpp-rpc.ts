/**
 * The one place that touches ocpp-rpc's module shape. It is CommonJS and spreads its error classes into
 * `module.exports`, which Node's ESM loader cannot see as named exports, and its bundled typings are loose; so the
 * rest of the gateway imports the library's classes and the narrow types it relies on from here.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import ocppRpc from 'ocpp-rpc';

export const { RPCServer, RPCClient, createRPCError } = ocppRpc;
export const { RPCError, TimeoutError } = ocppRpc as unknown as {
  RPCError: new (...args: never[]) => Error & { rpcErrorCode: string; rpcErrorMessage: string };
  TimeoutError: new (...args: never[]) => Error;
};

export type RpcServer = InstanceType<typeof RPCServer>;

/** What ocpp-rpc hands its auth callback about an upgrade request. */
export interface OcppHandshake {
  remoteAddress: string | undefined;
  protocols: Set<string>;
  endpoint: string;
  identity: string;
  request: IncomingMessage;
  password: Buffer | undefined;
}

export type AcceptHandshake = (session: Record<string, unknown>, protocol: string) => void;
export type RejectHandshake = (code: number, message: string) => void;

export interface StrictValidationFailure {
  error: Error;
  messageId: string;
  method: string;
  outbound: boolean;
  isCall: boolean;
}

export interface BadMessage {
  buffer: Buffer;
  error: Error;
  response: unknown[] | null;
}

export interface IncomingCall {
  messageId: string;
  method: string;
  params: Record<string, unknown>;
  signal: AbortSignal;
}

/** The side of ocpp-rpc's RPCServerClient that the gateway uses. */
export interface OcppServerSocket {
  readonly identity: string;
  readonly protocol: string;
  readonly session: Record<string, unknown>;
  readonly handshake: OcppHandshake;
  readonly state: number;
  handle(method: string, handler: (call: IncomingCall) => Promise<unknown>): void;
  handle(handler: (call: IncomingCall) => Promise<unknown>): void;
  call(
    method: string,
    params: unknown,
    options?: { callTimeoutMs?: number; signal?: AbortSignal },
  ): Promise<unknown>;
  close(options?: {
    code?: number;
    reason?: string;
    awaitPending?: boolean;
    force?: boolean;
  }): Promise<unknown>;
  on(event: 'close', listener: (event: { code: number; reason: string }) => void): this;
  on(event: 'strictValidationFailure', listener: (event: StrictValidationFailure) => void): this;
  on(event: 'badMessage', listener: (event: BadMessage) => void): this;
  on(event: 'socketError', listener: (error: Error) => void): this;
  /** Emitted for every call, right before an outbound one is written to the socket. */
  on(event: 'call', listener: (event: { outbound: boolean; payload: unknown[] }) => void): this;
  once(event: 'close', listener: (event: { code: number; reason: string }) => void): this;
  off(event: 'call' | 'strictValidationFailure', listener: (...args: never[]) => void): this;
}

export type HandleUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => Promise<void>;

/**
 * Drops the TCP connection now. ocpp-rpc's `close({force: true})` is a no-op once a graceful close is under way,
 * which is exactly when a shutdown whose grace period ran out needs it; so this reaches for the `ws` socket itself.
 */
export function terminateSocket(socket: OcppServerSocket): void {
  (socket as unknown as { _ws?: { terminate(): void } })._ws?.terminate();
}

/** An RPCError thrown from a handler becomes the CALLERROR the charge point receives (ocpp-rpc does the wiring). */
export function ocppCallError(
  code: 'NotImplemented' | 'NotSupported' | 'InternalError' | 'GenericError',
  message: string,
): Error {
  return createRPCError(code, message) as unknown as Error;
}
