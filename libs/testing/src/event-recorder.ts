import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { EVENT_STREAM, type EventEnvelope } from '@cpc/contracts';

export interface RecordedEvent {
  subject: string;
  /** Its sequence in the stream: the order consumers get it in, whatever its occurredAt. */
  seq: number;
  event: EventEnvelope<Record<string, unknown>>;
}

/** Reads everything published on the event stream from now on (start it after a gateway created the stream). */
export class EventRecorder {
  readonly events: RecordedEvent[] = [];
  private waiters: (() => void)[] = [];
  private stopRecording: (() => Promise<void>) | undefined;

  static async start(natsUrl: string): Promise<EventRecorder> {
    const recorder = new EventRecorder();
    const nats = await connect({ servers: natsUrl });
    const consumer = await jetstream(nats).consumers.get(EVENT_STREAM.name, {
      deliver_policy: DeliverPolicy.New,
    });
    const messages = await consumer.consume();
    void (async () => {
      for await (const message of messages) {
        recorder.events.push({
          subject: message.subject,
          seq: message.seq,
          event: message.json<RecordedEvent['event']>(),
        });
        const waiters = recorder.waiters;
        recorder.waiters = [];
        waiters.forEach((wake) => wake());
      }
    })();
    recorder.stopRecording = async () => {
      await messages.close();
      await nats.close();
    };
    return recorder;
  }

  /** Index of the next event to be recorded: pass it to waitFor to ignore what happened before. */
  get mark(): number {
    return this.events.length;
  }

  /** The first event on `subject` (from the `from`th recorded on) whose data matches; waits up to `timeoutMs`. */
  async waitFor(
    subject: string,
    matches: (data: Record<string, unknown>) => boolean = () => true,
    options: { timeoutMs?: number; from?: number } = {},
  ): Promise<RecordedEvent['event']> {
    const timeoutMs = options.timeoutMs ?? 10000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events
        .slice(options.from ?? 0)
        .find((recorded) => recorded.subject === subject && matches(recorded.event.data));
      if (found) return found.event;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `no ${subject} event within ${timeoutMs} ms; recorded: ${this.events.map((recorded) => recorded.subject).join(', ')}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  on(
    subject: string,
    matches: (data: Record<string, unknown>) => boolean = () => true,
  ): RecordedEvent['event'][] {
    return this.events
      .filter((recorded) => recorded.subject === subject && matches(recorded.event.data))
      .map((recorded) => recorded.event);
  }

  async stop(): Promise<void> {
    await this.stopRecording?.();
  }
}
