import 'reflect-metadata';
import { jest } from '@jest/globals';
import { ConcurrentHandshakesLimiter } from './handshake/concurrent-handshakes.limiter.js';
import { connect } from 'node:net';
import { chargePoint, type GatewayTestRig, startGatewayTestRig } from './testing/ocpp-gateway-test-bed.js';

jest.setTimeout(60_000);

const PASSWORD = 'correct-horse-battery-1';
const FLOOD = 3000;
const ATTACKERS = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
const REAL_CHARGE_POINTS = 20;

/**
 * One upgrade with a wrong password, written straight onto a TCP socket from `localAddress` (a WebSocket client per
 * attempt would cost the test far more than the gateway): the status code of the answer, or 'reset'/'no answer'.
 */
function rawUpgrade(port: number, localAddress: string, identity: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('connect', () =>
      socket.write(
        `GET /ocpp/acme/${identity} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${Buffer.from(identity.padEnd(16, '-')).toString('base64')}\r\n` +
          `Sec-WebSocket-Protocol: ocpp1.6\r\n` +
          `Authorization: Basic ${Buffer.from(`${identity}:wrong-password-000`).toString('base64')}\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: string) => {
      answer += chunk;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status) {
        resolve(status[1]);
        socket.destroy();
      }
    });
    socket.on('error', (error) => resolve(`error ${error.message}`));
    socket.on('close', () => resolve('no answer'));
  });
}

/**
 * A fault-style run: a few thousand handshakes with bad credentials at once, from a handful of addresses, while real
 * charge points (each from an address of its own, as in the field) connect. The per-address cap keeps the flood to a
 * few handshakes under way, so the real ones are accepted and the gateway stays up.
 */
describe('ocpp-gateway: a flood of bad handshakes', () => {
  let rig: GatewayTestRig;

  beforeAll(async () => {
    rig = await startGatewayTestRig();
    // Each credential check takes a while, as assets-service's scrypt does on a busy machine: long enough that an
    // address's handshakes overlap even when a loaded machine sends the flood slowly (each then meets the cap).
    rig.services.authenticateDelayMs = 250;
    for (let index = 0; index < REAL_CHARGE_POINTS; index++)
      rig.services.addController({ tenantSlug: 'acme', identity: `CP-REAL-${index}`, password: PASSWORD });
  });

  afterAll(async () => {
    await rig?.stop();
  });

  it('accepts the real charge points while thousands of bad handshakes arrive at once', async () => {
    const port = rig.gateway.ocppPort;
    const flood = Array.from({ length: FLOOD }, (_, index) =>
      rawUpgrade(port, ATTACKERS[index % ATTACKERS.length], `CP-REAL-${index % REAL_CHARGE_POINTS}`),
    );
    const chargePoints = Array.from({ length: REAL_CHARGE_POINTS }, (_, index) =>
      chargePoint({
        port,
        controller: { tenantSlug: 'acme', identity: `CP-REAL-${index}`, password: PASSWORD },
        protocols: ['ocpp1.6'],
        localAddress: `127.0.1.${index + 1}`,
      }),
    );
    const connected = await Promise.all(chargePoints.map((cp) => cp.connect().then(() => true)));
    expect(connected).toEqual(Array(REAL_CHARGE_POINTS).fill(true));
    const answers = await Promise.all(chargePoints.map((cp) => cp.call('Heartbeat', {})));
    expect(answers).toHaveLength(REAL_CHARGE_POINTS);

    const outcomes = await Promise.all(flood);
    const counts: Record<string, number> = {};
    for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
    // Every bad handshake was refused: as a bad password (401), at once for its address (429), or, where the machine is
    // too busy for a check to get its place in time, as unavailable (503). None got in. (The outcomes as a whole
    // first, so that a failure shows them.)
    const refusals = ['401', '429', '503'];
    expect(Object.keys(counts).filter((outcome) => !refusals.includes(outcome))).toEqual([]);
    expect(counts['429']).toBeGreaterThan(0);
    expect(refusals.reduce((sum, status) => sum + (counts[status] ?? 0), 0)).toBe(FLOOD);

    // Still up: nothing held, and a charge point connecting now is accepted.
    expect(rig.gateway.app.get(ConcurrentHandshakesLimiter).inProgress).toBe(0);
    const late = chargePoint({
      port,
      controller: { tenantSlug: 'acme', identity: 'CP-REAL-0', password: PASSWORD },
      protocols: ['ocpp2.0.1'],
      localAddress: '127.0.1.99',
    });
    await late.connect();
    await late.call('Heartbeat', {});
    await Promise.all([...chargePoints, late].map((cp) => cp.close()));
  });
});
