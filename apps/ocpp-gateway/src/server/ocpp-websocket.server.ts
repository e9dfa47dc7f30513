import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { OcppCallResponder } from '../calls/ocpp-call.responder.js';
import { ChargePointConnectionLifecycle } from '../connections/charge-point-connection.lifecycle.js';
import { ChargePointConnectionsRegistry } from '../connections/charge-point-connections.registry.js';
import { describeError } from '@cpc/errors';
import {
  ChargePointHandshakeAuthenticator,
  SUPPORTED_PROTOCOLS,
} from '../handshake/charge-point-handshake.authenticator.js';
import {
  ConcurrentHandshakesLimiter,
  type HandshakeRelease,
} from '../handshake/concurrent-handshakes.limiter.js';
import { HandshakeRefusedError } from '../handshake/handshake-refused.error.js';
import { parseOcppConnectionPath } from '../handshake/ocpp-connection-path.js';
import { isWellFormedSubprotocolOffer } from '../handshake/subprotocol-offer.js';
import { clientAddressOf } from '../handshake/transport-security.js';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import {
  type AcceptHandshake,
  type HandleUpgrade,
  type OcppHandshake,
  type OcppServerSocket,
  type RejectHandshake,
  RPCServer,
  type RpcServer,
  trimAcceptedSocket,
  withoutServerHeader,
} from '../ocpp-rpc/ocpp-rpc.js';

/**
 * The charge points' endpoint: an HTTP(S) listener on OCPP_PORT whose WebSocket upgrades go to ocpp-rpc's RPCServer.
 * Strict mode validates every message in both directions against the official OCPP schemas; ChargePointKeepAlive
 * drops dead sockets.
 */
@Injectable()
export class OcppWebSocketServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OcppWebSocketServer.name);
  private readonly rpcServer: RpcServer;
  private readonly httpServer: Server;
  private accepting = false;
  /** The listeners the upgrade put on each TCP socket (see releaseUpgrade). */
  private readonly upgradeListeners = new WeakMap<Duplex, UpgradeListeners>();
  /** The credential check of each upgrade under way, so its place among the concurrent handshakes is held until it ends. */
  private readonly authentications = new WeakMap<IncomingMessage, Promise<void>>();
  private readonly onUpgradeSocketError = (error: Error) =>
    this.logger.debug(`upgrade socket error: ${error.message}`);

  constructor(
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
    private readonly authenticator: ChargePointHandshakeAuthenticator,
    private readonly lifecycle: ChargePointConnectionLifecycle,
    private readonly connections: ChargePointConnectionsRegistry,
    private readonly calls: OcppCallResponder,
    private readonly handshakes: ConcurrentHandshakesLimiter,
  ) {
    this.rpcServer = withoutServerHeader(
      new RPCServer({
        protocols: [...SUPPORTED_PROTOCOLS],
        strictMode: true,
        callTimeoutMs: config.callTimeoutMs,
        // ChargePointKeepAlive pings instead, with one timer for all sockets.
        pingIntervalMs: 0,
        callConcurrency: 1,
        maxBadMessages: config.maxBadMessages,
        respondWithDetailedErrors: false,
        wssOptions: { maxPayload: config.maxMessageBytes },
      }),
    );
    this.rpcServer.on('error', (error: Error) =>
      this.logger.error(`WebSocket server error: ${error.message}`),
    );
    this.rpcServer.auth((accept, reject, handshake) => {
      this.authentications.set(handshake.request, this.authenticate(accept, reject, handshake));
    });
    this.rpcServer.on('client', (socket: OcppServerSocket) => {
      releaseUpgrade(socket, this.upgradeListeners);
      trimAcceptedSocket(socket, this.rpcServer);
      this.lifecycle.opened(socket);
    });
    this.httpServer = this.createListener();
  }

  /** The port actually listened on (OCPP_PORT 0 picks a free one). */
  get port(): number {
    return (this.httpServer.address() as AddressInfo | null)?.port ?? this.config.ocppPort;
  }

  async onApplicationBootstrap(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.httpServer.once('error', reject);
      this.httpServer.listen(
        { port: this.config.ocppPort, host: '0.0.0.0', backlog: this.config.tuning.listenBacklog },
        () => {
          this.httpServer.off('error', reject);
          resolve();
        },
      );
    });
    this.accepting = true;
    this.logger.log(
      `accepting charge points on ${this.config.tls ? 'wss' : 'ws'}://0.0.0.0:${this.port}/ocpp/<tenant>/<identity>`,
    );
  }

  /**
   * SIGTERM: refuse new upgrades, close every socket with 1001 once its calls in flight settled (bounded by the
   * grace period), and only then let NATS drain, so replies, recorded outcomes and disconnect events still go out.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.accepting = false;
    this.handshakes.refuseWaiting();
    const listenerClosed = new Promise<void>((resolve) => this.httpServer.close(() => resolve()));
    const open = this.connections.all();
    this.logger.log(`shutting down: closing ${open.length} charge point socket(s)`);
    const graceful = Promise.all(
      open.map((connection) => connection.close('gateway_shutdown', { awaitPending: true })),
    );
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace_over'>(
      (resolve) => (timer = setTimeout(() => resolve('grace_over'), this.config.shutdownGraceMs)),
    );
    if ((await Promise.race([graceful, graceOver])) === 'grace_over') {
      this.logger.warn('shutdown grace period over: dropping the remaining sockets');
      await Promise.all(open.map((connection) => connection.terminate()));
    }
    clearTimeout(timer);
    await this.lifecycle.disconnectsAnnounced();
    await this.calls.outcomesRecorded();
    await this.rpcServer.close({ code: 1001, reason: 'gateway_shutdown' });
    this.httpServer.closeAllConnections();
    await listenerClosed;
  }

  private createListener(): Server {
    const notFound = (_request: IncomingMessage, response: import('node:http').ServerResponse) => {
      response.statusCode = 404;
      response.end();
    };
    const tls = this.config.tls;
    const server: Server = tls
      ? createHttpsServer(
          {
            cert: tls.certFiles.map((file) => readFileSync(file)),
            key: tls.keyFiles.map((file) => readFileSync(file)),
            minVersion: 'TLSv1.2',
            // Profile 3 charge points present a certificate; profile 1/2 ones on the same port do not, so an
            // absent or unverified certificate is not a TLS failure: the handshake decides per controller.
            ...(tls.clientCaFile
              ? { ca: readFileSync(tls.clientCaFile), requestCert: true, rejectUnauthorized: false }
              : {}),
          },
          notFound,
        )
      : createHttpServer(notFound);
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(request, socket, head),
    );
    server.on('tlsClientError', (error: Error) =>
      this.logger.debug(`TLS handshake failed: ${error.message}`),
    );
    return server;
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const before = listenersOf(socket);
    // A client that resets mid-handshake must not become an unhandled 'error' event.
    socket.on('error', this.onUpgradeSocketError);
    if (!this.accepting) return refuseUpgrade(socket, 503);
    if (!parseOcppConnectionPath(request.url)) return refuseUpgrade(socket, 404);
    if (!isWellFormedSubprotocolOffer(request.headers['sec-websocket-protocol']))
      return refuseUpgrade(socket, 400);
    const admitted = this.handshakes.admit(clientAddressOf(request, this.config));
    if (typeof admitted === 'number') return refuseUpgrade(socket, admitted);
    if (typeof admitted === 'function') return this.check(request, socket, head, before, admitted);
    // Waits for a place. The socket is not read meanwhile (a client sends nothing before the answer), so a client that
    // leaves is mostly noticed only when its turn comes and the answer cannot be written.
    const abandon = () => admitted.abandon();
    socket.once('close', abandon);
    void admitted.admitted.then((release) => {
      socket.off('close', abandon);
      if (release === 503) return refuseUpgrade(socket, 503);
      if (socket.destroyed) return release();
      if (!this.accepting) {
        release();
        return refuseUpgrade(socket, 503);
      }
      this.check(request, socket, head, before, release);
    });
  }

  /** Hands an admitted upgrade to ocpp-rpc; its place is given back once the upgrade is accepted or refused. */
  private check(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    before: UpgradeListeners,
    release: HandshakeRelease,
  ): void {
    const upgraded = (this.rpcServer.handleUpgrade as HandleUpgrade)(request, socket, head);
    // ocpp-rpc adds its listeners before it awaits the auth callback, so they are all there by now.
    this.upgradeListeners.set(socket, addedSince(before, listenersOf(socket)));
    void (async () => {
      try {
        await upgraded;
        await this.authentications.get(request);
      } catch (error) {
        this.logger.warn(`upgrade failed: ${describeError(error)}`);
        socket.destroy();
      } finally {
        this.authentications.delete(request);
        release();
      }
    })();
  }

  private async authenticate(
    accept: AcceptHandshake,
    reject: RejectHandshake,
    handshake: OcppHandshake,
  ): Promise<void> {
    try {
      const accepted = await this.authenticator.authenticate(handshake);
      if (!this.accepting) return reject(503, STATUS_CODES[503] ?? '');
      accept({ ...accepted.chargePoint }, accepted.protocol);
    } catch (error) {
      const status = error instanceof HandshakeRefusedError ? error.status : 503;
      const reason = error instanceof HandshakeRefusedError ? error.reason : describeError(error);
      this.logger.warn(
        `refused ${handshake.request.url ?? ''} from ${handshake.remoteAddress ?? 'unknown'} with ${status}: ${reason}`,
      );
      reject(status, STATUS_CODES[status] ?? '');
    }
  }
}

type Listener = Parameters<Duplex['removeListener']>[1];
type UpgradeListeners = Record<UpgradeEvent, Listener[]>;
type UpgradeEvent = 'error' | 'end' | 'close';
const UPGRADE_EVENTS: readonly UpgradeEvent[] = ['error', 'end', 'close'];

function listenersOf(socket: Duplex): UpgradeListeners {
  const listeners = (event: UpgradeEvent) => socket.listeners(event) as Listener[];
  return { error: listeners('error'), end: listeners('end'), close: listeners('close') };
}

function addedSince(before: UpgradeListeners, after: UpgradeListeners): UpgradeListeners {
  const added = (event: UpgradeEvent) => after[event].filter((listener) => !before[event].includes(listener));
  return { error: added('error'), end: added('end'), close: added('close') };
}

/**
 * Removes the listeners of the upgrade from the TCP socket of an accepted charge point: ours and ocpp-rpc's (which
 * only refuse an upgrade still undecided) would keep the upgrade request, its headers and their closures for as long
 * as the socket lives, about two kilobytes per idle charge point. `ws` has its own listeners on the socket by now.
 */
function releaseUpgrade(socket: OcppServerSocket, upgradeListeners: WeakMap<Duplex, UpgradeListeners>): void {
  const tcpSocket = socket.handshake.request.socket;
  const listeners = upgradeListeners.get(tcpSocket);
  upgradeListeners.delete(tcpSocket);
  for (const event of UPGRADE_EVENTS) {
    for (const listener of listeners?.[event] ?? []) tcpSocket.removeListener(event, listener);
  }
}

function refuseUpgrade(socket: Duplex, status: number): void {
  const text = STATUS_CODES[status] ?? '';
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}
