import { setTimeout as sleep } from 'node:timers/promises';
import ocppRpc from 'ocpp-rpc';
import { answerCall, type SimulatedProtocol } from './charge-point-answers.js';
import { nonceOfCall } from './command-plan.js';
import type { ReceivedCall } from './fault-report.js';

interface IncomingCall {
  messageId: string;
  method: string;
  params: unknown;
}

/** The side of ocpp-rpc's RPCClient used here (its bundled typings are loose). */
interface RpcClient {
  connect(): Promise<unknown>;
  call(action: string, payload: unknown): Promise<unknown>;
  close(options?: { force?: boolean; awaitPending?: boolean }): Promise<unknown>;
  handle(handler: (call: IncomingCall) => Promise<unknown>): void;
  on(event: 'open' | 'disconnect', listener: () => void): void;
}
const RPCClient = (ocppRpc as unknown as { RPCClient: new (options: Record<string, unknown>) => RpcClient })
  .RPCClient;

export interface SimulatedChargePointOptions {
  /** `ws://host:port/ocpp/<tenant slug>`; the identity is appended. */
  endpoint: string;
  identity: string;
  password: string;
  protocol: SimulatedProtocol;
  controllerUuid: string;
  /** Longest pause before an answer (a random share of it), so calls are in flight when processes die. */
  maxAnswerDelayMs: number;
  /** Every call received, as it arrives (before it is answered). */
  onCall: (call: ReceivedCall) => void;
}

const BOOT: Record<SimulatedProtocol, Record<string, unknown>> = {
  'ocpp1.6': { chargePointVendor: 'Faults', chargePointModel: 'Sim 16' },
  'ocpp2.0.1': { reason: 'PowerUp', chargingStation: { vendorName: 'Faults', model: 'Sim 201' } },
};

/**
 * A charge point that answers every call (strict OCPP-J, official schemas both ways), records what it received and
 * reconnects by itself whenever its connection drops, within a second or two.
 */
export class SimulatedChargePoint {
  connects = 0;
  disconnects = 0;
  connected = false;
  private readonly client: RpcClient;
  private stopped = false;

  constructor(private readonly options: SimulatedChargePointOptions) {
    this.client = new RPCClient({
      endpoint: options.endpoint,
      identity: options.identity,
      password: options.password,
      protocols: [options.protocol],
      strictMode: true,
      reconnect: true,
      backoff: { initialDelay: 200, maxDelay: 2000, factor: 2, randomisationFactor: 0.25 },
      callTimeoutMs: 10_000,
      pingIntervalMs: 5_000,
    });
    this.client.handle((call) => this.answer(call));
    this.client.on('open', () => {
      this.connects += 1;
      this.connected = true;
      this.client.call('BootNotification', BOOT[options.protocol]).catch(() => undefined);
    });
    this.client.on('disconnect', () => {
      this.disconnects += 1;
      this.connected = false;
    });
  }

  /** The first connection (ocpp-rpc reconnects by itself only after one succeeded): retried until `deadline`. */
  async start(deadline: number): Promise<void> {
    for (;;) {
      try {
        await this.client.connect();
        return;
      } catch (error) {
        if (this.stopped || Date.now() > deadline)
          throw new Error(`${this.options.identity} could not connect: ${(error as Error).message}`);
        await sleep(250);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client.close({ force: true }).catch(() => undefined);
  }

  private async answer(call: IncomingCall): Promise<unknown> {
    const answer = answerCall(this.options.protocol, call.method, call.params);
    this.options.onCall({
      nonce: nonceOfCall(call.method, call.params),
      controllerUuid: this.options.controllerUuid,
      identity: this.options.identity,
      action: call.method,
      messageId: call.messageId,
      at: Date.now(),
      expected: answer.expected,
    });
    if (this.options.maxAnswerDelayMs > 0) await sleep(Math.random() * this.options.maxAnswerDelayMs);
    return answer.response;
  }
}
