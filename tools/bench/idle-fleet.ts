import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';

/**
 * A child process of `npm run bench` holding idle charge points: each a plain `ws` socket speaking OCPP-J (1.6 or
 * 2.0.1): BootNotification once, Heartbeat at the interval, CALLERROR NotImplemented to any call from the platform.
 * One process holds at most a few thousand, so the fleet stays within the per-process open-file limit.
 */
export interface IdleFleetOrder {
  ocppUrl: string;
  tenant: string;
  identities: string[];
  heartbeatSeconds: number;
  connectsPerSecond: number;
}

export interface IdleFleetReport {
  connected: number;
  failed: number;
  closed: number;
  /** Connects tried again after a refusal or failure. */
  retries: number;
  heartbeatsAnswered: number;
  lastError?: string;
}

const MAX_ATTEMPTS = 5;

const BOOT = {
  'ocpp1.6': { chargePointVendor: 'Bench', chargePointModel: 'Idle 16' },
  'ocpp2.0.1': { chargingStation: { vendorName: 'Bench', model: 'Idle 201' }, reason: 'PowerUp' },
} as const;

function runFleet(order: IdleFleetOrder, report: (state: IdleFleetReport) => void): () => void {
  const state: IdleFleetReport = { connected: 0, failed: 0, closed: 0, retries: 0, heartbeatsAnswered: 0 };
  const sockets: WebSocket[] = [];
  const timers: NodeJS.Timeout[] = [];

  const connect = (identity: string, index: number, attempt = 1): void => {
    const protocol = index % 2 === 0 ? 'ocpp1.6' : 'ocpp2.0.1';
    const socket = new WebSocket(`${order.ocppUrl}/ocpp/${order.tenant}/${identity}`, [protocol], {
      perMessageDeflate: false,
    });
    sockets.push(socket);
    let open = false;
    socket.on('open', () => {
      open = true;
      state.connected += 1;
      socket.send(JSON.stringify([2, randomUUID(), 'BootNotification', BOOT[protocol]]));
      const firstBeat = Math.random() * order.heartbeatSeconds * 1000;
      timers.push(
        setTimeout(() => {
          const beat = () => socket.send(JSON.stringify([2, randomUUID(), 'Heartbeat', {}]));
          beat();
          timers.push(setInterval(beat, order.heartbeatSeconds * 1000));
        }, firstBeat),
      );
    });
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as unknown[];
      if (message[0] === 3 && typeof (message[2] as { currentTime?: unknown })?.currentTime === 'string') {
        state.heartbeatsAnswered += 1;
      }
      if (message[0] === 2) socket.send(JSON.stringify([4, message[1], 'NotImplemented', '', {}]));
    });
    socket.on('unexpected-response', (_request, response) => {
      state.lastError = `upgrade answered ${response.statusCode}`;
      socket.terminate();
    });
    socket.on('error', (error) => (state.lastError = error.message));
    socket.on('close', () => {
      if (open) {
        state.connected -= 1;
        state.closed += 1;
      } else if (attempt < MAX_ATTEMPTS) {
        // A refused or failed connect is tried again later, as a charge point's firmware does.
        state.retries += 1;
        timers.push(
          setTimeout(() => connect(identity, index, attempt + 1), 2000 + Math.random() * 3000 * attempt),
        );
      } else state.failed += 1;
    });
  };

  let next = 0;
  const perTick = Math.max(1, Math.round(order.connectsPerSecond / 20));
  const opener = setInterval(() => {
    for (let i = 0; i < perTick && next < order.identities.length; i += 1, next += 1) {
      connect(order.identities[next], next);
    }
    if (next >= order.identities.length) clearInterval(opener);
  }, 50);
  const reporter = setInterval(() => report({ ...state }), 1000);

  return () => {
    clearInterval(opener);
    clearInterval(reporter);
    for (const timer of timers) clearInterval(timer);
    for (const socket of sockets) socket.terminate();
  };
}

if (process.send) {
  let stop: (() => void) | undefined;
  process.on('message', (message: { start?: IdleFleetOrder; stop?: true }) => {
    if (message.start) stop = runFleet(message.start, (state) => process.send?.(state));
    if (message.stop) {
      stop?.();
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
}
