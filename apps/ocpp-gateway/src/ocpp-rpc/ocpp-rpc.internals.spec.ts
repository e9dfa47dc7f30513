import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import WebSocket from 'ws';
import {
  type OcppServerSocket,
  RPCClient,
  RPCServer,
  type RpcServer,
  TimeoutError,
  WEBSOCKET_CLOSED,
  WEBSOCKET_OPEN,
} from './ocpp-rpc.js';

const require = createRequire(import.meta.url);
const PINNED_VERSION = '2.2.1';
const installedVersion = (require('ocpp-rpc/package.json') as { version: string }).version;

type Internals = Record<string, unknown>;

/**
 * Fails with a message naming the field, what the gateway needs of it and which helper relies on it, so that an
 * upgrade of ocpp-rpc that renames or reshapes a private field is caught here and not by a charge point in production.
 */
function expectInternal(
  owner: string,
  object: unknown,
  field: string,
  needed: string,
  holds: (value: unknown) => boolean,
  reliedOnBy: string,
): void {
  const value = (object as Internals)[field];
  if (!holds(value)) {
    throw new Error(
      `ocpp-rpc ${installedVersion}: ${owner}.${field} is no longer ${needed} (got ${shown(value)}); ` +
        `${reliedOnBy} relies on it. See docs/patched-libraries.md before upgrading.`,
    );
  }
}

function shown(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return typeof value === 'object'
    ? `a ${value.constructor?.name ?? 'object'}`
    : `${typeof value} ${JSON.stringify(value)}`;
}

const isMap = (value: unknown) => value instanceof Map;
const isFunction = (value: unknown) => typeof value === 'function';

/**
 * The private fields of ocpp-rpc that ocpp-rpc.ts reads or replaces (docs/patched-libraries.md), checked on a real
 * RPCServer configured as the gateway's and a real RPCClient over a real socket.
 */
describe(`ocpp-rpc internals the gateway relies on (pinned ${PINNED_VERSION})`, () => {
  let server: RpcServer;
  let http: Server;
  let socket: OcppServerSocket;
  let client: InstanceType<typeof RPCClient> & {
    handle(method: string, handler: (call: { params: unknown }) => unknown): void;
  };

  beforeAll(async () => {
    server = new RPCServer({
      protocols: ['ocpp1.6', 'ocpp2.0.1'],
      strictMode: true,
      pingIntervalMs: 0,
      callConcurrency: 1,
      respondWithDetailedErrors: false,
    });
    const accepted = new Promise<OcppServerSocket>((resolve) => server.once('client', resolve));
    http = await server.listen(0, '127.0.0.1');
    client = new RPCClient({
      endpoint: `ws://127.0.0.1:${(http.address() as AddressInfo).port}`,
      identity: 'CP-INTERNALS',
      protocols: ['ocpp1.6'],
      strictMode: false,
      reconnect: false,
    } as unknown as ConstructorParameters<typeof RPCClient>[0]) as typeof client;
    await client.connect();
    socket = await accepted;
  });

  afterAll(async () => {
    await client.close({ force: true });
    await server.close({ force: true });
  });

  it(`is the version the patches were checked against (${PINNED_VERSION})`, () => {
    if (installedVersion !== PINNED_VERSION) {
      throw new Error(
        `ocpp-rpc ${installedVersion} is installed, but ocpp-rpc.ts reaches into the private fields of ` +
          `${PINNED_VERSION}: go through docs/patched-libraries.md, then update the pin there, in package.json and here.`,
      );
    }
  });

  it('RPCServer._strictValidators: the Map of validators per protocol that trimAcceptedSocket shares', () => {
    const owner = 'RPCServer';
    expectInternal(owner, server, '_strictValidators', 'a Map', isMap, 'trimAcceptedSocket (ocpp-rpc.ts)');
    const validators = (server as unknown as { _strictValidators: Map<string, { validate?: unknown }> })
      ._strictValidators;
    expect(validators.has('ocpp2.0.1')).toBe(true);
    expect(typeof validators.get('ocpp1.6')?.validate).toBe('function');
  });

  it('RPCServerClient: the fields trimAcceptedSocket drops or replaces', () => {
    const owner = 'RPCServerClient';
    const by = 'trimAcceptedSocket (ocpp-rpc.ts)';
    expectInternal(
      owner,
      socket,
      '_handshake',
      "the object behind 'handshake'",
      (value) => {
        return typeof value === 'object' && value !== null && value === socket.handshake;
      },
      by,
    );
    expectInternal(owner, socket, '_backoffStrategy', 'an object', (value) => typeof value === 'object', by);
    expectInternal(owner, socket, '_nextPingTimeout', 'a timer', (value) => typeof value === 'object', by);
    expectInternal(owner, socket, '_strictValidators', 'a Map', isMap, by);
  });

  it('RPCServerClient._ws: the ws WebSocket terminateSocket and pingOrDrop use', () => {
    const ws = (socket as unknown as { _ws: unknown })._ws;
    expectInternal(
      'RPCServerClient',
      socket,
      '_ws',
      'a ws WebSocket',
      (value) => value instanceof WebSocket,
      'terminateSocket and pingOrDrop (ocpp-rpc.ts)',
    );
    expect(typeof (ws as WebSocket).ping).toBe('function');
    expect(typeof (ws as WebSocket).terminate).toBe('function');
  });

  it("RPCServerClient._state: ws's readyState values, behind 'state'", () => {
    expectInternal(
      'RPCServerClient',
      socket,
      '_state',
      `${WEBSOCKET_OPEN} (open)`,
      (value) => value === WEBSOCKET_OPEN,
      'pingOrDrop (ocpp-rpc.ts)',
    );
    expect(socket.state).toBe(WEBSOCKET_OPEN);
    expect(WEBSOCKET_OPEN).toBe(WebSocket.OPEN);
    expect(WEBSOCKET_CLOSED).toBe(WebSocket.CLOSED);
  });

  it("RPCServerClient._pendingPingResponse and _lastPingTime: set by pingOrDrop, cleared by ocpp-rpc's 'pong' listener", async () => {
    const owner = 'RPCServerClient';
    const by = 'pingOrDrop (ocpp-rpc.ts)';
    expectInternal(
      owner,
      socket,
      '_pendingPingResponse',
      'a boolean',
      (value) => typeof value === 'boolean',
      by,
    );
    expectInternal(owner, socket, '_lastPingTime', 'a number', (value) => typeof value === 'number', by);
    const internals = socket as unknown as Internals;
    internals._pendingPingResponse = true;
    const ponged = new Promise((resolve) => (socket as unknown as NodeJS.EventEmitter).once('ping', resolve));
    (internals._ws as WebSocket).ping();
    await ponged;
    expectInternal(
      owner,
      socket,
      '_pendingPingResponse',
      "cleared by ocpp-rpc's own 'pong' listener",
      (value) => value === false,
      by,
    );
  });

  it('RPCServerClient._handlers: where ocpp-rpc looks up the handler of each incoming call', async () => {
    const owner = 'RPCServerClient';
    expectInternal(owner, socket, '_handlers', 'a Map', isMap, 'handleActions (ocpp-rpc.ts)');
    const handlers = (socket as unknown as { _handlers: Map<string, unknown> })._handlers;
    const looked: string[] = [];
    (socket as unknown as Internals)._handlers = {
      get: (action: string) => {
        looked.push(action);
        return action === 'Heartbeat' ? () => ({ currentTime: new Date().toISOString() }) : undefined;
      },
    };
    try {
      await expect(client.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');
      await expect(client.call('Authorize', { idTag: 'TAG' })).rejects.toMatchObject({
        rpcErrorCode: 'NotImplemented',
      });
      expect(looked).toEqual(['Heartbeat', 'Authorize']);
    } finally {
      (socket as unknown as Internals)._handlers = handlers;
    }
  });

  it('RPCServerClient._pendingCalls: one entry per call awaiting an answer, with its params and reject', async () => {
    const owner = 'RPCServerClient';
    const by = 'callWithTimeout (ocpp-rpc.ts)';
    expectInternal(owner, socket, '_pendingCalls', 'a Map', isMap, by);
    // The charge point never answers: the call stays pending until rejected below.
    client.handle('Reset', () => new Promise(() => undefined));
    const params = { type: 'Hard' };
    const call = socket.call('Reset', params, { callTimeoutMs: Infinity });
    const pending = (socket as unknown as { _pendingCalls: Map<string, Internals> })._pendingCalls;
    const entry = [...pending.values()].find((candidate) => candidate.params === params);
    if (!entry || typeof entry.reject !== 'function') {
      throw new Error(
        `ocpp-rpc ${installedVersion}: RPCServerClient._pendingCalls no longer holds {params, reject} per call ` +
          '(the params object as given); callWithTimeout in ocpp-rpc.ts relies on it. See docs/patched-libraries.md.',
      );
    }
    (entry.reject as (error: unknown) => void)(new TimeoutError('Call timeout'));
    await expect(call).rejects.toBeInstanceOf(TimeoutError);
    expect(pending.size).toBe(0);
  });

  it("'call' is emitted for an outbound call that goes out, not for one strict mode stops", async () => {
    const sent: unknown[][] = [];
    const onCall = (event: { outbound: boolean; payload: unknown[] }) => {
      if (event.outbound) sent.push(event.payload);
    };
    client.handle('ClearCache', () => ({ status: 'Accepted' }));
    socket.on('call', onCall);
    try {
      await expect(socket.call('ClearCache', { unexpected: true })).rejects.toMatchObject({
        rpcErrorCode: 'PropertyConstraintViolation',
      });
      await expect(socket.call('ClearCache', {})).resolves.toEqual({ status: 'Accepted' });
    } finally {
      socket.off('call', onCall);
    }
    if (sent.length !== 1 || sent[0]?.[2] !== 'ClearCache') {
      throw new Error(
        `ocpp-rpc ${installedVersion}: 'call' was emitted for ${sent.length} of the 1 outbound call that went out; ` +
          'ChargePointCallSender relies on it to tell a sent call from one never sent. See docs/patched-libraries.md.',
      );
    }
  });

  it('createValidator(...)._ajv: the Ajv instance the OCPP schema test support reads schemas from', () => {
    const { createValidator } = require('ocpp-rpc') as { createValidator: (...args: unknown[]) => Internals };
    const validator = createValidator('ocpp1.6', require('ocpp-rpc/lib/schemas/ocpp1_6.json') as object[]);
    expectInternal(
      'Validator',
      validator,
      '_ajv',
      'an Ajv instance',
      (value) => isFunction((value as Internals)?.getSchema),
      'the OCPP schema test support (libs/ocpp-commands/src/testing/ocpp-schemas.ts)',
    );
    expect(
      (validator._ajv as { getSchema(id: string): unknown }).getSchema('urn:Heartbeat.req'),
    ).toBeTruthy();
  });
});
