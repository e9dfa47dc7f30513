import { jest } from '@jest/globals';
import type { AuthorizationDecisionsEvent } from '@cpc/contracts';
import type { JetStreamEventBus } from '@cpc/nats';
import { OCPP_GATEWAY_TUNING } from '../ocpp-gateway.config.js';
import {
  AuthorizationDecisionPublisher,
  type DecisionEventSink,
  type DecisionToRecord,
} from './authorization-decision.publisher.js';

const TENANT_A = '00000000-0000-4000-8000-00000000000a';
const TENANT_B = '00000000-0000-4000-8000-00000000000b';

function decision(idToken: string): DecisionToRecord {
  return {
    controllerUuid: '00000000-0000-4000-8000-000000000001',
    ocppIdentity: 'CP-1',
    locationUuid: '00000000-0000-4000-8000-000000000002',
    idToken,
    type: 'iso14443',
    tokenUuid: null,
    result: 'accepted',
    reason: 'known_token',
    messageKind: 'authorize',
  };
}

/** An event stream that takes publishes, or refuses them while `failing` is set. */
class RecordingSink implements DecisionEventSink {
  readonly published: AuthorizationDecisionsEvent[] = [];
  readonly attempts: string[] = [];
  failing = false;

  publish(_subject: string, event: AuthorizationDecisionsEvent): Promise<void> {
    this.attempts.push(event.eventId);
    if (this.failing) return Promise.reject(new Error('no responders'));
    this.published.push(event);
    return Promise.resolve();
  }
}

function publisherWith(sink: RecordingSink, tuning: Partial<typeof OCPP_GATEWAY_TUNING> = {}) {
  return new AuthorizationDecisionPublisher(sink as unknown as JetStreamEventBus, {
    tuning: { ...OCPP_GATEWAY_TUNING, ...tuning },
    shutdownGraceMs: 1000,
  });
}

describe('AuthorizationDecisionPublisher', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('gathers the decisions of a short while into one event per tenant, in order', async () => {
    const sink = new RecordingSink();
    const publisher = publisherWith(sink);
    publisher.record(TENANT_A, decision('A1'));
    publisher.record(TENANT_B, decision('B1'));
    publisher.record(TENANT_A, decision('A2'));
    expect(sink.attempts).toEqual([]);
    expect(publisher.pending).toBe(3);

    await jest.advanceTimersByTimeAsync(OCPP_GATEWAY_TUNING.decisionBatchDelayMs);

    expect(sink.published.map((event) => event.tenantUuid)).toEqual([TENANT_A, TENANT_B]);
    expect(sink.published[0].data.decisions.map((entry) => entry.idToken)).toEqual(['A1', 'A2']);
    expect(sink.published[1].data.decisions.map((entry) => entry.idToken)).toEqual(['B1']);
    const uuids = sink.published.flatMap((event) => event.data.decisions.map((entry) => entry.decisionUuid));
    expect(new Set(uuids).size).toBe(3);
    expect(publisher.pending).toBe(0);
  });

  it('publishes at once when a full event has gathered, and splits larger ones', async () => {
    const sink = new RecordingSink();
    const publisher = publisherWith(sink, { decisionBatchSize: 2 });
    publisher.record(TENANT_A, decision('A1'));
    publisher.record(TENANT_A, decision('A2'));
    await Promise.resolve();
    expect(sink.published.map((event) => event.data.decisions.length)).toEqual([2]);
  });

  it('retries a failed publish with the same event id, so the stream stores it once', async () => {
    const sink = new RecordingSink();
    sink.failing = true;
    const publisher = publisherWith(sink);
    publisher.record(TENANT_A, decision('A1'));
    await jest.advanceTimersByTimeAsync(OCPP_GATEWAY_TUNING.decisionBatchDelayMs);
    expect(sink.attempts).toHaveLength(1);
    expect(publisher.pending).toBe(1);

    sink.failing = false;
    await jest.advanceTimersByTimeAsync(OCPP_GATEWAY_TUNING.decisionRetryDelayMs);

    expect(sink.attempts).toEqual([sink.attempts[0], sink.attempts[0]]);
    expect(sink.published).toHaveLength(1);
    expect(publisher.pending).toBe(0);
  });

  it('drops the oldest decisions beyond the queue limit while the stream is away', async () => {
    const sink = new RecordingSink();
    sink.failing = true;
    const publisher = publisherWith(sink, { decisionQueueLimit: 3, decisionBatchSize: 1000 });
    for (const token of ['1', '2', '3', '4', '5']) publisher.record(TENANT_A, decision(token));
    expect(publisher.pending).toBe(3);

    sink.failing = false;
    await jest.advanceTimersByTimeAsync(OCPP_GATEWAY_TUNING.decisionBatchDelayMs);

    expect(sink.published.flatMap((event) => event.data.decisions.map((entry) => entry.idToken))).toEqual([
      '3',
      '4',
      '5',
    ]);
  });

  it('publishes what it gathered when the gateway shuts down', async () => {
    jest.useRealTimers();
    const sink = new RecordingSink();
    const publisher = publisherWith(sink);
    publisher.record(TENANT_A, decision('A1'));
    await publisher.onApplicationShutdown();
    expect(sink.published).toHaveLength(1);
  });
});
