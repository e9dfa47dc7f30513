/** How far each event consumer has acknowledged its stream: delivery rows up to there may be claimed. */
export interface AckFloorReading {
  commandAckFloor: number;
  chargePointAckFloor: number;
}

export interface AckFloorsOptions {
  /** Reads both consumers' ack floors (two JetStream API requests). */
  read: () => Promise<AckFloorReading>;
  /** A reading younger than this serves a claim without a new read being started. */
  maxAgeMs: number;
  /** Called when a read finishes with a floor higher than the previous reading, or the first: rows may be claimable. */
  onAdvance: () => void;
  /** Called once when reads start failing, and once when one succeeds again. */
  onFailing: (error: unknown) => void;
  onRecovered: () => void;
  now?: () => number;
}

/**
 * The consumers' ack floors for the delivery loop's claims. Only the first claim waits for a read; later ones take
 * the latest reading and, when it is older than maxAgeMs, start one read in the background (never two at once), so
 * the loop does not wait for JetStream between claims. An older reading only holds the newest rows back (the floors
 * only grow); when a read finds them higher, onAdvance wakes the loop to claim what they let through.
 */
export class AckFloors {
  private reading: AckFloorReading | undefined;
  private readAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<AckFloorReading> | undefined;
  /** readNow() was called while a read was in flight, which may have been asked before what it is to see. */
  private readAgain = false;
  private failing = false;
  private readonly now: () => number;

  constructor(private readonly options: AckFloorsOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The floors a claim may use now; rejects only while no read has succeeded yet and the current one fails. */
  async current(): Promise<AckFloorReading> {
    if (this.reading === undefined) return this.refresh();
    if (this.now() - this.readAt >= this.options.maxAgeMs) void this.refresh().catch(() => undefined);
    return this.reading;
  }

  /**
   * Starts a read now, however young the last reading (events whose rows were just written are acknowledged: the
   * floors may let them through); while one is in flight, one more after it.
   */
  readNow(): void {
    if (this.inFlight) this.readAgain = true;
    else void this.refresh().catch(() => undefined);
  }

  private refresh(): Promise<AckFloorReading> {
    this.inFlight ??= this.readOnce().finally(() => {
      this.inFlight = undefined;
      if (!this.readAgain) return;
      this.readAgain = false;
      void this.refresh().catch(() => undefined);
    });
    return this.inFlight;
  }

  private async readOnce(): Promise<AckFloorReading> {
    const startedAt = this.now();
    let next: AckFloorReading;
    try {
      next = await this.options.read();
    } catch (error) {
      if (!this.failing) this.options.onFailing(error);
      this.failing = true;
      throw error;
    }
    if (this.failing) this.options.onRecovered();
    this.failing = false;
    const previous = this.reading;
    this.reading = next;
    this.readAt = startedAt;
    // The first reading may have been started by readNow(), not by a claim waiting for it.
    if (
      previous === undefined ||
      next.commandAckFloor > previous.commandAckFloor ||
      next.chargePointAckFloor > previous.chargePointAckFloor
    )
      this.options.onAdvance();
    return this.reading;
  }
}
