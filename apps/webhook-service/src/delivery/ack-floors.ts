/** How far each event consumer has acknowledged its stream: delivery rows up to there may be claimed. */
export interface AckFloorReading {
  commandAckFloor: number;
  chargePointAckFloor: number;
}

/** One of the two floors. */
export type AckFloorName = keyof AckFloorReading;

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
  /**
   * readUntil(): reads after the first, at most, while the floor is still short of the event (an acknowledgement the
   * server had not taken yet), each `rereadDelayMs` after the one before; past them the loop's polls find it.
   */
  rereads: number;
  rereadDelayMs: number;
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
  /** readUntil()'s floors still to reach, and the rereads left for them. */
  private awaited: Partial<AckFloorReading> = {};
  private rereadsLeft = 0;
  private rereadTimer: NodeJS.Timeout | undefined;
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

  /**
   * Reads until `floor` has reached `streamSequence`, for an event just acknowledged: a confirmed acknowledgement is in
   * the first read, an unconfirmed one may come after it. Nothing to do when the last reading has it already.
   */
  readUntil(floor: AckFloorName, streamSequence: number): void {
    if (this.reading !== undefined && this.reading[floor] >= streamSequence) return;
    this.awaited[floor] = Math.max(this.awaited[floor] ?? 0, streamSequence);
    this.rereadsLeft = this.options.rereads;
    this.readNow();
  }

  /** Stops the rereads' timer (at shutdown). */
  close(): void {
    clearTimeout(this.rereadTimer);
    this.awaited = {};
  }

  private refresh(): Promise<AckFloorReading> {
    this.inFlight ??= this.readOnce().finally(() => {
      this.inFlight = undefined;
      if (this.readAgain) {
        this.readAgain = false;
        void this.refresh().catch(() => undefined);
      } else this.rereadIfShort();
    });
    return this.inFlight;
  }

  private rereadIfShort(): void {
    const reading = this.reading;
    for (const floor of Object.keys(this.awaited) as AckFloorName[]) {
      if (reading !== undefined && reading[floor] >= this.awaited[floor]!) delete this.awaited[floor];
    }
    if (Object.keys(this.awaited).length === 0 || this.rereadTimer !== undefined) return;
    if (this.rereadsLeft <= 0) {
      this.awaited = {};
      return;
    }
    this.rereadsLeft -= 1;
    this.rereadTimer = setTimeout(() => {
      this.rereadTimer = undefined;
      this.readNow();
    }, this.options.rereadDelayMs);
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
