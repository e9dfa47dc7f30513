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
  TimeoutError: new (message?: string) => Error;
};

export type RpcServer = InstanceType<typeof RPCServer>;

/**
 * ocpp-rpc adds `Server: ocpp-rpc/<version> (<platform>)` to every upgrade answer, telling a scanner which library and
 * version to aim at; this drops that listener from the server's `ws` WebSocketServer (the only 'headers' listener).
 */
export function withoutServerHeader(server: RpcServer): RpcServer {
  (server as unknown as { _wss: { removeAllListeners(event: string): void } })._wss.removeAllListeners(
    'headers',
  );
  return server;
}

/** ocpp-rpc's states are those of `ws`. */
export const WEBSOCKET_OPEN = 1;
export const WEBSOCKET_CLOSED = 3;

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
  /** Until trimAcceptedSocket(). */
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

/**
 * Drops what ocpp-rpc keeps for the life of an accepted socket although the gateway's sockets never use it again:
 * the handshake (the whole upgrade request, its headers and parsed URL; the session has what the gateway needs), the
 * reconnect backoff (a server's socket never reconnects), the spent timer of its own keep-alive (switched off, see
 * ChargePointKeepAlive) and its own copy of the strict-mode validators (the same as the server's).
 */
export function trimAcceptedSocket(socket: OcppServerSocket, server: RpcServer): void {
  const client = socket as unknown as Record<
    '_handshake' | '_backoffStrategy' | '_nextPingTimeout' | '_strictValidators',
    unknown
  >;
  client._handshake = client._backoffStrategy = client._nextPingTimeout = undefined;
  client._strictValidators = (server as unknown as { _strictValidators: unknown })._strictValidators;
}

export type HandleUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => Promise<void>;

/**
 * Drops the TCP connection now. ocpp-rpc's `close({force: true})` is a no-op once a graceful close is under way,
 * which is exactly when a shutdown whose grace period ran out needs it; so this reaches for the `ws` socket itself.
 */
export function terminateSocket(socket: OcppServerSocket): void {
  (socket as unknown as { _ws?: { terminate(): void } })._ws?.terminate();
}

type CallHandler = (call: IncomingCall) => Promise<unknown>;

/** Stands in for the Map of handlers ocpp-rpc keeps per socket; its calls only ever look handlers up. */
class ActionHandlers {
  constructor(
    private readonly actions: { has(action: string): boolean },
    private readonly handler: CallHandler,
    private readonly admit: (action: string) => void,
  ) {}

  get(action: string): CallHandler | undefined {
    this.admit(action);
    return this.actions.has(action) ? this.handler : undefined;
  }
}

/**
 * Serves every action of `actions` with `handler`; ocpp-rpc answers any other action NotImplemented before it
 * validates it, as with `socket.handle(action, handler)` per action, but without a Map of them per socket (half a
 * kilobyte per idle charge point). Replaces the socket's handlers: `socket.handle()` must not be used besides it.
 *
 * `admit` runs first for every incoming call, before the lookup and the schema validation; an RPCError it throws is
 * the call's CALLERROR (ocpp-rpc looks the handler up inside its own try), so a refused call costs next to nothing.
 */
export function handleActions(
  socket: OcppServerSocket,
  actions: { has(action: string): boolean },
  handler: CallHandler,
  admit: (action: string) => void = () => undefined,
): void {
  (socket as unknown as { _handlers: ActionHandlers })._handlers = new ActionHandlers(
    actions,
    handler,
    admit,
  );
}

/**
 * One step of ocpp-rpc's keep-alive, for ChargePointKeepAlive: an open socket whose previous ping is unanswered is
 * dropped, any other is pinged. ocpp-rpc's own 'pong' listener (always attached) clears the flag.
 */
export function pingOrDrop(socket: OcppServerSocket): void {
  const client = socket as unknown as {
    _state: number;
    _pendingPingResponse: boolean;
    _lastPingTime: number;
    _ws?: { ping(): void; terminate(): void };
  };
  const ws = client._ws;
  if (client._state !== WEBSOCKET_OPEN || !ws) return;
  if (client._pendingPingResponse) return ws.terminate();
  client._pendingPingResponse = true;
  client._lastPingTime = Date.now();
  try {
    ws.ping();
  } catch {
    ws.terminate();
  }
}

/** A call ocpp-rpc is waiting on the answer of (RPCClient._pendingCalls). */
interface PendingCall {
  params: unknown;
  reject(error: unknown): void;
}

/**
 * Sends a call to the charge point and gives up on it after `timeoutMs`, as ocpp-rpc's own `callTimeoutMs` would, at a
 * fraction of its cost: ocpp-rpc builds, for every call, a TimeoutError (stack included), an AbortController and a
 * promise timer, and on every answer the DOMException of aborting that timer, about a fifth of the gateway's busy
 * time under load. Here it is one plain timer; when it fires, the call (ocpp-rpc's pending entry for this `params`
 * object) is rejected with ocpp-rpc's TimeoutError and forgotten, exactly as ocpp-rpc does on its own timeout.
 */
export function callWithTimeout(
  socket: OcppServerSocket,
  method: string,
  params: object,
  timeoutMs: number,
): Promise<unknown> {
  const answer = socket.call(method, params, { callTimeoutMs: Infinity });
  const timer = setTimeout(() => {
    const pending = (socket as unknown as { _pendingCalls: Map<string, PendingCall> })._pendingCalls;
    for (const call of pending.values()) {
      if (call.params === params) return call.reject(new TimeoutError('Call timeout'));
    }
  }, timeoutMs);
  return answer.then(
    (response) => {
      clearTimeout(timer);
      return response;
    },
    (error: unknown) => {
      clearTimeout(timer);
      throw error;
    },
  );
}

/** An RPCError thrown from a handler becomes the CALLERROR the charge point receives (ocpp-rpc does the wiring). */
export function ocppCallError(
  code: 'NotImplemented' | 'NotSupported' | 'InternalError' | 'GenericError',
  message: string,
): Error {
  return createRPCError(code, message) as unknown as Error;
}
