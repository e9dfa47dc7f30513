/**
 * The uuids of commands this instance saw end lately (bounded: the oldest are forgotten first). A terminal status is
 * final, so a later ending or call-sent for one of them changes nothing and need not reach the database: with the
 * gateway's reply and its durable call-completed event both arriving for every command, half the endings are such
 * repeats. Forgetting is safe (the guarded transitions then find the command ended, as before).
 */
export class RecentlyEndedCommands {
  private readonly uuids = new Set<string>();

  constructor(private readonly capacity: number) {}

  has(commandUuid: string): boolean {
    return this.uuids.has(commandUuid);
  }

  add(commandUuid: string): void {
    if (this.uuids.has(commandUuid)) return;
    this.uuids.add(commandUuid);
    if (this.uuids.size > this.capacity) {
      const [oldest] = this.uuids;
      this.uuids.delete(oldest);
    }
  }
}
