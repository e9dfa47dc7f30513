/**
 * Names of the fleets one bench run seeds, which prefix their charge points' OCPP identities (`<name>-1`…): the first
 * fleet of a prefix is named after it, later ones `<prefix>2`, `<prefix>3`…, since identities are unique per tenant and
 * one run may seed several fleets of a prefix (a phase run twice).
 */
export class FleetNames {
  private readonly seeded = new Map<string, number>();

  next(prefix: string): string {
    const number = (this.seeded.get(prefix) ?? 0) + 1;
    this.seeded.set(prefix, number);
    return number === 1 ? prefix : `${prefix}${number}`;
  }
}
