import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import {
  callWithTimeout,
  handleActions,
  ocppCallError,
  type OcppServerSocket,
  pingOrDrop,
  RPCClient,
  RPCServer,
  type RpcServer,
  TimeoutError,
  trimAcceptedSocket,
} from './ocpp-rpc.js';

/**
 * The helpers that reach into ocpp-rpc's internals (to keep less per socket) against the library itself: an update of
 * ocpp-rpc that changes what they rely on fails here rather than in production.
 */
describe('ocpp-rpc helpers', () => {
  let server: RpcServer;
  let http: Server;
  let accepted: Promise<OcppServerSocket>;
  /** Set: every incoming call is refused with this error before it is looked up or validated. */
  let refusal: Error | undefined;
  const clients: { close(options?: { force?: boolean }): Promise<unknown> }[] = [];

  beforeEach(async () => {
    refusal = undefined;
    server = new RPCServer({ protocols: ['ocpp1.6'], strictMode: true, pingIntervalMs: 0 });
    accepted = new Promise((resolve) =>
      server.on('client', (socket: OcppServerSocket) => {
        trimAcceptedSocket(socket, server);
        handleActions(
          socket,
          new Set(['Heartbeat']),
          () => Promise.resolve({ currentTime: new Date().toISOString() }),
          () => {
            if (refusal) throw refusal;
          },
        );
        resolve(socket);
      }),
    );
    http = await server.listen(0, '127.0.0.1');
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close({ force: true })));
    await server.close({ force: true });
  });

  const url = () => `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;

  async function connectClient() {
    const client = new RPCClient({
      endpoint: url(),
      identity: 'CP-1',
      protocols: ['ocpp1.6'],
      // The server's strict mode is under test: this client sends whatever it is told to.
      strictMode: false,
      reconnect: false,
    } as unknown as ConstructorParameters<typeof RPCClient>[0]);
    clients.push(client);
    await client.connect();
    return client;
  }

  it('handleActions serves its actions, and ocpp-rpc answers any other NotImplemented', async () => {
    const client = await connectClient();
    await expect(client.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');
    await expect(client.call('Authorize', { idTag: 'TAG' })).rejects.toMatchObject({
      rpcErrorCode: 'NotImplemented',
    });
    await expect(client.call('NoSuchAction', {})).rejects.toMatchObject({ rpcErrorCode: 'NotImplemented' });
  });

  it("handleActions' admit answers with its error before the lookup and the schema validation", async () => {
    const client = await connectClient();
    refusal = ocppCallError('GenericError', 'over budget');
    for (const [action, params] of [
      ['Heartbeat', {}],
      ['Heartbeat', { unexpected: true }],
      ['NoSuchAction', {}],
    ] as const) {
      await expect(client.call(action, params)).rejects.toMatchObject({
        rpcErrorCode: 'GenericError',
        message: 'over budget',
      });
    }
    refusal = undefined;
    await expect(client.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');
  });

  it('trimAcceptedSocket lets the handshake go and leaves strict validation working', async () => {
    const client = await connectClient();
    const socket = await accepted;
    expect(socket.handshake).toBeUndefined();
    await expect(client.call('Heartbeat', { unexpected: true })).rejects.toMatchObject({
      rpcErrorCode: 'PropertyConstraintViolation',
    });
  });

  it("callWithTimeout answers like socket.call, and gives up on a silent charge point with ocpp-rpc's TimeoutError", async () => {
    const client = (await connectClient()) as unknown as {
      handle(method: string, handler: (call: { params: unknown }) => unknown): void;
    };
    client.handle('Reset', ({ params }) => ({
      status: (params as { type: string }).type === 'Hard' ? 'Accepted' : 'Rejected',
    }));
    // Answers only after the test is over: the gateway must not wait that long.
    client.handle(
      'UnlockConnector',
      () => new Promise((resolve) => setTimeout(() => resolve({ status: 'Unlocked' }), 60_000).unref()),
    );
    const socket = await accepted;
    const pending = (socket as unknown as { _pendingCalls: Map<string, unknown> })._pendingCalls;

    await expect(callWithTimeout(socket, 'Reset', { type: 'Hard' }, 5_000)).resolves.toEqual({
      status: 'Accepted',
    });
    expect(pending.size).toBe(0);

    const silent = callWithTimeout(socket, 'UnlockConnector', { connectorId: 1 }, 50);
    await expect(silent).rejects.toBeInstanceOf(TimeoutError);
    expect(pending.size).toBe(0);
    // The next call goes out and is answered as usual.
    await expect(callWithTimeout(socket, 'Reset', { type: 'Soft' }, 5_000)).resolves.toEqual({
      status: 'Rejected',
    });
  });

  it('pingOrDrop keeps a socket that answers pings and drops one whose previous ping is unanswered', async () => {
    await connectClient();
    const answering = await accepted;
    pingOrDrop(answering);
    await once(answering as unknown as NodeJS.EventEmitter, 'ping');
    pingOrDrop(answering);
    await once(answering as unknown as NodeJS.EventEmitter, 'ping');
    expect(answering.state).toBe(WebSocket.OPEN);

    const silentAccepted = new Promise<OcppServerSocket>((resolve) => server.once('client', resolve));
    const silent = new WebSocket(`${url()}/CP-2`, ['ocpp1.6'], { autoPong: false });
    silent.on('error', () => undefined);
    clients.push({ close: () => Promise.resolve(silent.terminate()) });
    const [dropped] = await Promise.all([silentAccepted, once(silent, 'open')]);
    const closed = once(dropped as unknown as NodeJS.EventEmitter, 'close');
    pingOrDrop(dropped);
    pingOrDrop(dropped);
    await closed;
  });
});
