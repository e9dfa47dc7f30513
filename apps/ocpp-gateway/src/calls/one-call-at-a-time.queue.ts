export const NO_TURN = Symbol('NO_TURN');

/**
 * OCPP-J allows one call in flight per direction. Calls to one charge point take turns here (rather than in
 * ocpp-rpc's own queue) so that a call that cannot get its turn in time is given up before anything is sent.
 */
export class OneCallAtATimeQueue {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `call` once every earlier one settled, or returns NO_TURN when that takes longer than `maxWaitMs`. */
  async run<T>(maxWaitMs: number, call: () => Promise<T>): Promise<T | typeof NO_TURN> {
    const previous = this.tail;
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    // The baton passes on only after the previous call settled, even when this one gave up waiting.
    this.tail = previous.then(() => done);
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<typeof NO_TURN>(
      (resolve) => (timer = setTimeout(() => resolve(NO_TURN), maxWaitMs)),
    );
    const turn = await Promise.race([previous.then(() => 'turn' as const), gaveUp]);
    clearTimeout(timer);
    if (turn === NO_TURN) {
      release();
      return NO_TURN;
    }
    try {
      return await call();
    } finally {
      release();
    }
  }
}
