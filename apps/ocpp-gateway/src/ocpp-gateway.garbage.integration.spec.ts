import 'reflect-metadata';
import { ChargePointEventSubjects } from '@cpc/contracts';
import { type EventRecorder, rawSocket, type RawSocket } from '@cpc/testing';
import type { RunningOcppGateway } from './start-ocpp-gateway.js';
import {
  chargePoint,
  type FakeController,
  type FakeTenantsAndControllers,
  type GatewayTestRig,
  startGatewayTestRig,
} from './testing/ocpp-gateway-test-bed.js';

const PASSWORD = 'correct-horse-battery-1';

describe('ocpp-gateway: garbage from a charge point', () => {
  let rig: GatewayTestRig;
  let gateway: RunningOcppGateway;
  let services: FakeTenantsAndControllers;
  let events: EventRecorder;
  let bystander: ReturnType<typeof chargePoint>;
  let counter = 0;

  beforeAll(async () => {
    rig = await startGatewayTestRig({ OCPP_MAX_MESSAGE_BYTES: '4096', OCPP_MAX_BAD_MESSAGES: '3' });
    ({ gateway, services, events } = rig);
    // A well-behaved charge point on the same gateway: whatever the others send, it keeps being served.
    const controller = services.addController({
      tenantSlug: 'acme',
      identity: 'CP-BYSTANDER',
      password: PASSWORD,
    });
    bystander = chargePoint({ port: gateway.ocppPort, controller, protocols: ['ocpp2.0.1'] });
    await bystander.connect();
  });

  afterEach(async () => {
    await expect(bystander.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');
  });

  afterAll(async () => {
    await bystander?.close();
    await rig?.stop();
  });

  async function misbehaving(
    protocol: 'ocpp1.6' | 'ocpp2.0.1',
  ): Promise<{ socket: RawSocket; controller: FakeController }> {
    counter += 1;
    const controller = services.addController({
      tenantSlug: 'acme',
      identity: `CP-GARBAGE-${counter}`,
      password: PASSWORD,
    });
    return { socket: await rawSocket(gateway.ocppPort, controller, protocol), controller };
  }

  /** After the garbage the socket still works: a Heartbeat gets its answer. */
  async function stillServed(socket: RawSocket): Promise<void> {
    const index = socket.received.length;
    socket.send(JSON.stringify([2, 'still-there', 'Heartbeat', {}]));
    expect(await socket.message(index)).toEqual([3, 'still-there', { currentTime: expect.any(String) }]);
  }

  describe.each(['ocpp1.6', 'ocpp2.0.1'] as const)('%s', (protocol) => {
    it.each([
      ['invalid JSON', '{"not json', [4, '-1', 'RpcFrameworkError', expect.any(String), {}]],
      ['JSON that is not an array', '{"a":1}', [4, '-1', 'RpcFrameworkError', expect.any(String), {}]],
      // ocpp-rpc rejects the type before it reads the message id, so the answer carries "-1".
      [
        'an unknown message type id',
        '[7,"m-7","Heartbeat",{}]',
        [4, '-1', 'MessageTypeNotSupported', expect.any(String), {}],
      ],
      [
        'a message type id that is not a number',
        '["2","m-s","Heartbeat",{}]',
        [4, '-1', 'RpcFrameworkError', expect.any(String), {}],
      ],
      [
        'a message id that is not a string',
        '[2,5,"Heartbeat",{}]',
        [4, '-1', 'RpcFrameworkError', expect.any(String), {}],
      ],
      [
        'an action that is not a string',
        '[2,"m-a",5,{}]',
        [4, 'm-a', 'RpcFrameworkError', expect.any(String), {}],
      ],
    ])('answers %s with a CALLERROR', async (_case, frame, answer) => {
      const { socket } = await misbehaving(protocol);
      socket.send(frame);
      expect(await socket.message(0)).toEqual(answer);
      await stillServed(socket);
      socket.close();
    });

    it('answers a payload that fails the official schema with the protocol error, without handling it', async () => {
      const { socket, controller } = await misbehaving(protocol);
      socket.send(
        JSON.stringify([2, 'm-boot', 'BootNotification', { chargePointVendor: 5, unexpected: true }]),
      );
      socket.send(
        JSON.stringify([2, 'm-status', 'StatusNotification', { connectorId: 'one', status: 'Charging' }]),
      );
      const violations = [
        'FormatViolation',
        'FormationViolation',
        'TypeConstraintViolation',
        'OccurrenceConstraintViolation',
        'OccurenceConstraintViolation',
        'PropertyConstraintViolation',
      ];
      for (const [index, id] of [
        [0, 'm-boot'],
        [1, 'm-status'],
      ] as const) {
        const answer = (await socket.message(index)) as unknown[];
        expect(answer.slice(0, 2)).toEqual([4, id]);
        expect(violations).toContain(answer[2]);
      }
      await stillServed(socket);
      expect(
        events.on(
          ChargePointEventSubjects.booted,
          (data) => data.controllerUuid === controller.controllerUuid,
        ),
      ).toEqual([]);
      socket.close();
    });

    it('answers a schema-invalid payload with a CALLERROR that does not echo the payload', async () => {
      const { socket } = await misbehaving(protocol);
      // Found by the OCPP fuzz tests: ocpp-rpc echoed the payload in the details, and one nested deeper than
      // JSON.stringify recurses made it close the socket (1000) instead of answering.
      const deep = '['.repeat(1500) + ']'.repeat(1500);
      socket.send(`[2,"m-deep","DataTransfer",{"vendorId":5,"data":${deep}}]`);
      const answer = (await socket.message(0)) as unknown[];
      expect(answer.slice(0, 2)).toEqual([4, 'm-deep']);
      expect(answer[4]).not.toHaveProperty('data');
      await stillServed(socket);
      socket.close();
    });

    it('answers a missing required field with OccurrenceConstraintViolation, spelled as the protocol spells it', async () => {
      const { socket } = await misbehaving(protocol);
      // Found by the OCPP fuzz tests: ocpp-rpc answered 2.0.1 with 1.6's misspelling "OccurenceConstraintViolation".
      socket.send(JSON.stringify([2, 'm-missing', 'BootNotification', {}]));
      expect(((await socket.message(0)) as unknown[]).slice(0, 3)).toEqual([
        4,
        'm-missing',
        'OccurrenceConstraintViolation',
      ]);
      socket.close();
    });

    it('ignores replies to calls it never made and empty frames', async () => {
      const { socket } = await misbehaving(protocol);
      socket.send(JSON.stringify([3, 'never-sent', { status: 'Accepted' }]));
      socket.send(JSON.stringify([4, 'never-sent', 'GenericError', '', {}]));
      socket.send('');
      await stillServed(socket);
      expect(socket.received).toHaveLength(1);
      socket.close();
    });

    it('closes the socket (1009) on an oversized frame', async () => {
      const { socket } = await misbehaving(protocol);
      socket.send(JSON.stringify([2, 'm-big', 'DataTransfer', { vendorId: 'x', data: 'x'.repeat(8192) }]));
      await expect(socket.closed).resolves.toMatchObject({ code: 1009 });
    });

    it('closes the socket (1002) after too many malformed messages in a row', async () => {
      const { socket } = await misbehaving(protocol);
      for (let index = 0; index < 4; index++) socket.send(`garbage ${index}`);
      await expect(socket.closed).resolves.toMatchObject({ code: 1002 });
    });

    it('survives binary frames and invalid UTF-8', async () => {
      const { socket } = await misbehaving(protocol);
      socket.send(Buffer.from([0x5b, 0x32, 0x2c, 0xff, 0xfe, 0x5d]));
      // ws closes a text frame with invalid UTF-8 (1007); a binary frame reaches ocpp-rpc as a bad message.
      const outcome = await Promise.race([socket.closed, socket.message(0)]);
      expect(outcome).toEqual(expect.anything());
    });
  });

  it('a charge point that sends garbage through a real client is still answered afterwards', async () => {
    const controller = services.addController({
      tenantSlug: 'acme',
      identity: 'CP-RPC-GARBAGE',
      password: PASSWORD,
    });
    const cp = chargePoint({ port: gateway.ocppPort, controller, protocols: ['ocpp1.6'] });
    const bad: unknown[] = [];
    cp.on('message', ({ message, outbound }: { message: string; outbound: boolean }) => {
      if (!outbound) bad.push(JSON.parse(message));
    });
    await cp.connect();
    cp.sendRaw('][');
    await expect(cp.call('Heartbeat', {})).resolves.toHaveProperty('currentTime');
    expect(bad[0]).toEqual([4, '-1', 'RpcFrameworkError', expect.any(String), {}]);
    await cp.close();
  });
});
