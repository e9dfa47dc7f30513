import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { EVENT_STREAM, type EventEnvelope } from '@cpc/contracts';
import { currentRequestId } from '@cpc/logging';
import { activeTraceparent, startTracing, stopTracing } from '@cpc/tracing';
import { type DeliveredEvent, JetStreamEventBus } from './jetstream-event-bus.js';
import { type PrivateNatsServer, startNatsServer } from './testing/private-nats-server.js';

/** Polls `probe` until `accept` holds (libs/testing's eventually is out of reach: it depends on this library). */
async function until<T>(probe: () => Promise<T> | T, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function event(index: number): EventEnvelope<{ index: number }> {
  return {
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    tenantUuid: randomUUID(),
    data: { index },
  };
}

const indexes = (batch: readonly DeliveredEvent[]) =>
  batch.map((d) => (d.event.data as { index: number }).index);

describe('JetStreamEventBus.consumeBatches (real nats-server)', () => {
  let nats: PrivateNatsServer;
  let connection: NatsConnection;
  let bus: JetStreamEventBus;

  beforeAll(async () => {
    nats = await startNatsServer();
    connection = await connect({ servers: nats.url });
    bus = new JetStreamEventBus(connection);
  });

  afterAll(async () => {
    await bus?.onApplicationShutdown();
    await connection?.drain();
    await nats?.stop();
  });

  /** Events of the durable delivered and not acknowledged, and not yet delivered. */
  async function outstanding(durableName: string): Promise<{ unacknowledged: number; undelivered: number }> {
    const info = await (await jetstreamManager(connection)).consumers.info(EVENT_STREAM.name, durableName);
    return { unacknowledged: info.num_ack_pending, undelivered: info.num_pending };
  }

  const allAcknowledged = (state: { unacknowledged: number; undelivered: number }) =>
    state.unacknowledged === 0 && state.undelivered === 0;

  /** Publishes events 0…count-1 on `events.test.<name>.n`. */
  async function publish(name: string, from: number, count: number): Promise<void> {
    for (let index = from; index < from + count; index += 1) {
      await bus.publish(`events.test.${name}.n`, event(index));
    }
  }

  it('hands over what was delivered in stream order, one batch at a time, never more than the maximum', async () => {
    const name = 'order';
    await publish(name, 0, 100);
    const batches: number[][] = [];
    let inFlight = 0;
    let overlapped = false;
    await bus.consumeBatches(
      { durableName: `test_${name}`, filterSubject: `events.test.${name}.>`, maxBatchSize: 7 },
      async (batch) => {
        inFlight += 1;
        overlapped ||= inFlight > 1;
        batches.push(indexes(batch));
        await sleep(5);
        inFlight -= 1;
      },
    );
    await until(
      () => batches.flat().length,
      (handled) => handled >= 100,
    );
    // Events arriving while a batch is handled: the next batches fill up, so a backlog goes in few of them.
    await publish(name, 100, 20);
    await until(
      () => batches.flat().length,
      (handled) => handled >= 120,
    );
    expect(batches.flat()).toEqual([...Array(120).keys()]);
    expect(Math.max(...batches.map((batch) => batch.length))).toBe(7);
    expect(batches.filter((batch) => batch.length === 7).length).toBeGreaterThanOrEqual(10);
    expect(overlapped).toBe(false);
    await until(() => outstanding(`test_${name}`), allAcknowledged);
  });

  it('does not wait for a batch to fill: a lone event goes on at once', async () => {
    const name = 'lone';
    const batches: number[][] = [];
    await bus.consumeBatches(
      { durableName: `test_${name}`, filterSubject: `events.test.${name}.>`, maxBatchSize: 100 },
      (batch) => {
        batches.push(indexes(batch));
        return Promise.resolve();
      },
    );
    await publish(name, 0, 1);
    await until(
      () => batches.length,
      (count) => count === 1,
    );
    expect(batches).toEqual([[0]]);
  });

  it('acknowledges a batch only after its handler resolved', async () => {
    const name = 'ack';
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handled: number[] = [];
    await publish(name, 0, 5);
    await bus.consumeBatches(
      { durableName: `test_${name}`, filterSubject: `events.test.${name}.>`, maxBatchSize: 10 },
      async (batch) => {
        await released;
        handled.push(...indexes(batch));
      },
    );
    await sleep(300);
    expect(await outstanding(`test_${name}`)).toEqual({ unacknowledged: 5, undelivered: 0 });
    release();
    await until(() => outstanding(`test_${name}`), allAcknowledged);
    expect(handled).toEqual([0, 1, 2, 3, 4]);
  });

  it('redelivers every event of a failed batch after the retry delay, and drops an event that is not JSON', async () => {
    const name = 'retry';
    await publish(name, 0, 3);
    await jetstream(connection).publish(`events.test.${name}.n`, 'not json');
    await publish(name, 3, 2);
    const calls: { indexes: number[]; deliveries: number[]; at: number }[] = [];
    await bus.consumeBatches(
      {
        durableName: `test_${name}`,
        filterSubject: `events.test.${name}.>`,
        maxBatchSize: 10,
        retryDelayMs: 500,
      },
      (batch) => {
        calls.push({
          indexes: indexes(batch),
          deliveries: batch.map((d) => d.position.deliveryCount),
          at: Date.now(),
        });
        return calls.length === 1 ? Promise.reject(new Error('the database is away')) : Promise.resolve();
      },
    );
    await until(
      () => calls.slice(1).flatMap((call) => call.indexes).length,
      (count) => count >= 5,
    );
    await until(() => outstanding(`test_${name}`), allAcknowledged);
    const [failed, ...later] = calls;
    // The first batch is what had arrived together (usually all five): each of its events comes again, as a second
    // delivery and not before the retry delay; the others once; the non-JSON one never reaches the handler.
    expect(failed.indexes.length).toBeGreaterThan(0);
    expect(failed.deliveries.every((count) => count === 1)).toBe(true);
    const handledLater = later.flatMap((call) => call.indexes.map((index, i) => [index, call.deliveries[i]]));
    expect(handledLater.map(([index]) => index).sort()).toEqual([0, 1, 2, 3, 4]);
    for (const [index, deliveries] of handledLater) {
      expect([index, deliveries]).toEqual([index, failed.indexes.includes(index) ? 2 : 1]);
    }
    const firstRedelivery = later.find((call) => call.deliveries.includes(2));
    expect(firstRedelivery!.at - failed.at).toBeGreaterThanOrEqual(400);
  });

  it('redelivers only the events a batch outcome names, and acknowledges the rest', async () => {
    const name = 'outcome';
    await publish(name, 0, 4);
    const calls: { indexes: number[]; deliveries: number[] }[] = [];
    await bus.consumeBatches(
      {
        durableName: `test_${name}`,
        filterSubject: `events.test.${name}.>`,
        maxBatchSize: 10,
        retryDelayMs: 100,
      },
      (batch) => {
        calls.push({ indexes: indexes(batch), deliveries: batch.map((d) => d.position.deliveryCount) });
        // Event 2 fails on its first delivery (its index in that batch), the others never.
        const failing = batch.findIndex(
          (d) => (d.event.data as { index: number }).index === 2 && d.position.deliveryCount === 1,
        );
        return Promise.resolve({ redeliver: new Set(failing === -1 ? [] : [failing]) });
      },
    );
    await until(
      () => calls.flatMap((call) => call.indexes).length,
      (count) => count >= 5,
    );
    await until(() => outstanding(`test_${name}`), allAcknowledged);
    // However the four arrived in batches: each once as a first delivery, and event 2 once more, as a second.
    const handled = calls.flatMap((call) => call.indexes.map((index, i) => [index, call.deliveries[i]]));
    expect(handled.filter(([, deliveries]) => deliveries === 1).map(([index]) => index)).toEqual([
      0, 1, 2, 3,
    ]);
    expect(handled.filter(([, deliveries]) => deliveries === 2)).toEqual([[2, 2]]);
    expect(handled).toHaveLength(5);
  });

  it('runs afterAcknowledged once the ack floor includes the batch, and not for a batch all redelivered', async () => {
    const name = 'after_ack';
    const durableName = `test_${name}`;
    const readings: { index: number; sequence: number; floor: number }[] = [];
    let redelivered = 0;
    await bus.consumeBatches(
      { durableName, filterSubject: `events.test.${name}.>`, maxBatchSize: 10, retryDelayMs: 100 },
      ([delivered, ...others]) => {
        expect(others).toHaveLength(0);
        const index = (delivered.event.data as { index: number }).index;
        // Event 3 fails on its first delivery: its batch acknowledges nothing.
        if (index === 3 && delivered.position.deliveryCount === 1) redelivered += 1;
        const failing = index === 3 && delivered.position.deliveryCount === 1;
        return Promise.resolve({
          redeliver: new Set(failing ? [0] : []),
          afterAcknowledged: () => {
            void bus
              .ackFloor(durableName)
              .then((floor) => readings.push({ index, sequence: delivered.position.streamSequence, floor }));
          },
        });
      },
    );
    // One event at a time, each its own batch: every reading is taken right after that batch's acknowledgement.
    for (let index = 0; index < 40; index += 1) {
      await publish(name, index, 1);
      await until(() => outstanding(durableName), allAcknowledged);
    }
    await until(
      () => readings.length,
      (count) => count >= 40,
    );
    expect(redelivered).toBe(1);
    expect(readings.map((reading) => reading.index).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, index) => index),
    );
    for (const reading of readings) expect(reading.floor).toBeGreaterThanOrEqual(reading.sequence);
  });

  describe('with tracing on', () => {
    const exporter = new InMemorySpanExporter();

    beforeAll(() => {
      startTracing(
        {
          serviceName: 'test-service',
          tracesEndpoint: 'http://127.0.0.1:1/v1/traces',
          sampler: 'parentbased_always_on',
          samplerRatio: 1,
        },
        { spanProcessor: new SimpleSpanProcessor(exporter) },
      );
    });
    afterAll(() => stopTracing());

    it("runs a batch under its first event's id, in the trace of the first event that carries one", async () => {
      const name = 'trace';
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const parentSpanId = '00f067aa0ba902b7';
      const events = [event(1), event(2), event(3)];
      // The batch is what has reached the client when the previous one ends: a first batch (event 0) waits until the
      // three have arrived, counted on a connection of their own, so that they make up the next batch together.
      const consuming = await connect({ servers: nats.url });
      const consumingBus = new JetStreamEventBus(consuming);
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      let blocking = true;
      await bus.publish(`events.test.${name}.n`, event(0));
      const seen: { size: number; requestId?: string; traceparent?: string }[] = [];
      await consumingBus.consumeBatches(
        { durableName: `test_${name}`, filterSubject: `events.test.${name}.>`, maxBatchSize: 10 },
        async (batch) => {
          if (blocking) {
            blocking = false;
            return released;
          }
          seen.push({ size: batch.length, requestId: currentRequestId(), traceparent: activeTraceparent() });
        },
      );
      await until(
        () => blocking,
        (waiting) => !waiting,
      );
      const receivedBefore = consuming.stats().inMsgs;
      await bus.publish(`events.test.${name}.n`, events[0]);
      await bus.publish(`events.test.${name}.n`, events[1], `00-${traceId}-${parentSpanId}-01`);
      await bus.publish(`events.test.${name}.n`, events[2]);
      await until(
        () => consuming.stats().inMsgs,
        (received) => received >= receivedBefore + 3,
      );
      release();
      try {
        await until(() => outstanding(`test_${name}`), allAcknowledged);
      } finally {
        await consumingBus.onApplicationShutdown();
        await consuming.drain();
      }
      expect(seen).toEqual([
        { size: 3, requestId: events[0].eventId, traceparent: expect.stringContaining(traceId) as string },
      ]);
      const span = exporter
        .getFinishedSpans()
        .find((finished) => finished.spanContext().traceId === traceId)!;
      expect(span.name).toBe(`process events.test.${name}.n`);
      expect(span.spanContext().traceId).toBe(traceId);
      expect(span.parentSpanContext?.spanId).toBe(parentSpanId);
      expect(span.attributes).toMatchObject({
        'messaging.consumer.group.name': `test_${name}`,
        'messaging.batch.message_count': 3,
      });
    });
  });
});
