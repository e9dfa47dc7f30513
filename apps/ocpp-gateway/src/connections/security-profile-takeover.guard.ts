import { Injectable } from '@nestjs/common';
import { ChargePointConnectionsRegistry } from './charge-point-connections.registry.js';
import { ChargePointPresenceRegistry } from './charge-point-presence.registry.js';
import type { TakeoverCheck } from './security-profile-rank.js';

/**
 * A newer socket of a controller replaces the older one, but one without credentials (security profile 0) must never
 * replace one that proved who it is with a higher profile: that would hand the charge point's commands to anyone who
 * knows its identity. Asked by the handshake (this instance's socket, then the presence registry for one held
 * elsewhere) and again when the socket opens (this instance's, in case one opened meanwhile). What opens elsewhere
 * after the check is caught by the presence write of a profile-0 connection, a compare-and-set over what the check read
 * (ChargePointPresenceRegistry.announce), and by the takeover notices, which carry the profile (mayReplace).
 */
@Injectable()
export class SecurityProfileTakeoverGuard {
  constructor(
    private readonly connections: ChargePointConnectionsRegistry,
    private readonly presence: ChargePointPresenceRegistry,
  ) {}

  /** The profile of the socket a profile-0 newcomer would replace, when that one is higher, and what was read. */
  async check(controllerUuid: string, securityProfile: number): Promise<TakeoverCheck> {
    // Only a newcomer without credentials can be outranked: the others need no registry lookup.
    if (securityProfile !== 0) return { outranking: undefined };
    const here = this.connections.get(controllerUuid);
    if (here) {
      // The entry is most likely the one this instance wrote for it; a wrong guess costs a read when the socket opens.
      return {
        outranking: this.outrankingHere(controllerUuid, securityProfile),
        presenceRevision: here.presenceRevision,
      };
    }
    return this.presence.profileAbove(controllerUuid, securityProfile);
  }

  /** The same for a socket held by this instance only; synchronous, for the moment the socket opens. */
  outrankingHere(controllerUuid: string, securityProfile: number): number | undefined {
    const held = this.connections.get(controllerUuid)?.chargePoint.securityProfile;
    return securityProfile === 0 && held !== undefined && held > 0 ? held : undefined;
  }
}
