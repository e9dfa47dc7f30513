import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import {
  handleActions,
  type OcppServerSocket,
  pingOrDrop,
  RPCClient,
  RPCServer,
  type RpcServer,
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
  const clients: { close(options?: { force?: boolean }): Promise<unknown> }[] = [];

  beforeEach(async () => {
    server = new RPCServer({ protocols: ['ocpp1.6'], strictMode: true, pingIntervalMs: 0 });
    accepted = new Promise((resolve) =>
      server.on('client', (socket: OcppServerSocket) => {
        trimAcceptedSocket(socket, server);
        handleActions(socket, new Set(['Heartbeat']), () =>
          Promise.resolve({ currentTime: new Date().toISOString() }),
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

  it('trimAcceptedSocket lets the handshake go and leaves strict validation working', async () => {
    const client = await connectClient();
    const socket = await accepted;
    expect(socket.handshake).toBeUndefined();
    await expect(client.call('Heartbeat', { unexpected: true })).rejects.toMatchObject({
      rpcErrorCode: 'PropertyConstraintViolation',
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
