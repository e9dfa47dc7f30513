/**
 * At most `maxRunning` pieces of work at once and `maxWaiting` waiting for a place; anyone beyond is refused at once
 * with the error `refusal` makes, so a flood queues no unbounded work (password hashing: 128 MiB and a libuv thread
 * each).
 */
export class BoundedWork {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly maxRunning: number,
    private readonly maxWaiting: number,
    private readonly refusal: () => Error,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.maxRunning) {
      this.running += 1;
    } else {
      if (this.waiting.length >= this.maxWaiting) throw this.refusal();
      // The place is handed over by the finishing work, so `running` stays as it is.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
