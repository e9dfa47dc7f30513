/**
 * The uuids of commands this instance saw end lately (bounded: the oldest are forgotten first), each with its charge
 * point where known. A terminal status is final, so a later ending or call-sent for one of them changes nothing and
 * need not reach the database: with the gateway's reply and its durable call-completed event both arriving for every
 * command, half the endings are such repeats. A repeat reported by a charge point is answered here only when the
 * command is known to be that charge point's: any other must reach the database, which refuses it (and says so).
 * Forgetting is safe (the guarded transitions then find the command ended, as before).
 */
export class RecentlyEndedCommands {
  /** By command uuid: its charge point (any string that names it), or undefined when not known. */
  private readonly chargePoints = new Map<string, string | undefined>();

  constructor(private readonly capacity: number) {}

  /** Whether the command ended lately; with `chargePoint`, only if it is known to be that charge point's. */
  has(commandUuid: string, chargePoint?: string): boolean {
    if (chargePoint === undefined) return this.chargePoints.has(commandUuid);
    return this.chargePoints.get(commandUuid) === chargePoint;
  }

  add(commandUuid: string, chargePoint?: string): void {
    if (this.chargePoints.has(commandUuid)) {
      // Learnt later (a report from it after the dispatcher's own ending): kept in its place among the others.
      if (chargePoint !== undefined && this.chargePoints.get(commandUuid) === undefined) {
        this.chargePoints.set(commandUuid, chargePoint);
      }
      return;
    }
    this.chargePoints.set(commandUuid, chargePoint);
    if (this.chargePoints.size > this.capacity) {
      const [oldest] = this.chargePoints.keys();
      this.chargePoints.delete(oldest);
    }
  }
}
