import ocppRpc from 'ocpp-rpc';
import type { ReceivedCall } from './fault-report.js';
import { SimulatedChargePoint } from './simulated-charge-point.js';

interface ServerSideClient {
  identity: string;
  call(action: string, payload: unknown): Promise<unknown>;
  handle(handler: (call: { method: string }) => unknown): void;
  close(options?: { force?: boolean }): Promise<unknown>;
}
interface RpcServer {
  on(event: 'client', listener: (client: ServerSideClient) => void): void;
  auth(callback: (accept: () => void, reject: () => void, handshake: { password?: Buffer }) => void): void;
  listen(port: number, host: string): Promise<{ address(): { port: number } }>;
  close(options?: { force?: boolean }): Promise<unknown>;
}
const RPCServer = (ocppRpc as unknown as { RPCServer: new (options: Record<string, unknown>) => RpcServer })
  .RPCServer;

/** A strict OCPP server standing in for the gateway: hands out every socket that connects, in order. */
async function ocppServer(protocol: string) {
  const server = new RPCServer({ protocols: [protocol], strictMode: true });
  const passwords: string[] = [];
  server.auth((accept, _reject, handshake) => {
    passwords.push(handshake.password?.toString() ?? '');
    accept();
  });
  const sockets: ServerSideClient[] = [];
  const waiting: ((client: ServerSideClient) => void)[] = [];
  server.on('client', (client) => {
    client.handle(({ method }) => (method === 'BootNotification' ? bootAccepted() : {}));
    const next = waiting.shift();
    if (next) next(client);
    else sockets.push(client);
  });
  const http = await server.listen(0, '127.0.0.1');
  return {
    server,
    passwords,
    port: http.address().port,
    nextSocket: (): Promise<ServerSideClient> =>
      sockets.length > 0
        ? Promise.resolve(sockets.shift()!)
        : new Promise((resolve) => waiting.push(resolve)),
  };
}

/** The same shape on both versions. */
function bootAccepted(): Record<string, unknown> {
  return { status: 'Accepted', currentTime: new Date().toISOString(), interval: 300 };
}

describe.each([
  [
    'ocpp1.6',
    'ReserveNow',
    { connectorId: 1, expiryDate: '2030-01-01T00:00:00Z', idTag: 'F10', reservationId: 10 },
  ],
  [
    'ocpp2.0.1',
    'ReserveNow',
    { id: 10, expiryDateTime: '2030-01-01T00:00:00Z', idToken: { idToken: 'F10', type: 'Central' } },
  ],
] as const)('SimulatedChargePoint on %s', (protocol, action, payload) => {
  let gateway: Awaited<ReturnType<typeof ocppServer>>;
  let chargePoint: SimulatedChargePoint;
  let socket: ServerSideClient;
  const received: ReceivedCall[] = [];

  beforeAll(async () => {
    gateway = await ocppServer(protocol);
    chargePoint = new SimulatedChargePoint({
      endpoint: `ws://127.0.0.1:${gateway.port}/ocpp/faults`,
      identity: 'FCP-1',
      password: 'secret-password-1',
      protocol,
      controllerUuid: 'controller-1',
      maxAnswerDelayMs: 0,
      onCall: (call) => received.push(call),
    });
    await chargePoint.start(Date.now() + 10_000);
  });

  afterAll(async () => {
    await chargePoint.stop();
    await gateway.server.close({ force: true });
  });

  it('logs in with Basic auth, answers calls (refusing every fifth command) and records each with its nonce', async () => {
    socket = await gateway.nextSocket();
    expect(gateway.passwords).toEqual(['secret-password-1']);
    await expect(socket.call(action, payload)).resolves.toEqual({ status: 'Rejected' });
    expect(received).toEqual([
      expect.objectContaining({
        nonce: 10,
        controllerUuid: 'controller-1',
        identity: 'FCP-1',
        action,
        expected: 'rejected',
      }),
    ]);
  });

  it('reconnects by itself when the gateway drops the connection', async () => {
    const first = received.length;
    await socket.close({ force: true });
    socket = await gateway.nextSocket();
    const again = {
      ...payload,
      ...(protocol === 'ocpp1.6'
        ? { idTag: 'F11', reservationId: 11 }
        : { id: 11, idToken: { idToken: 'F11', type: 'Central' } }),
    };
    await expect(socket.call(action, again)).resolves.toEqual({ status: 'Accepted' });
    expect(received.slice(first)).toEqual([expect.objectContaining({ nonce: 11, expected: 'accepted' })]);
    expect(chargePoint.connects).toBe(2);
  });
});
