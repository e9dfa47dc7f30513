import { Injectable } from '@nestjs/common';
import type { ChargePointConnection } from './charge-point-connection.js';

/** The sockets this instance holds, one per controller: the newest wins. */
@Injectable()
export class ChargePointConnectionsRegistry {
  private readonly byController = new Map<string, ChargePointConnection>();

  /** Makes `connection` the controller's current one and returns the one it replaces, if any. */
  add(connection: ChargePointConnection): ChargePointConnection | undefined {
    const previous = this.byController.get(connection.controllerUuid);
    this.byController.set(connection.controllerUuid, connection);
    return previous;
  }

  /** Forgets `connection` unless a newer one of the same controller replaced it already; true when it was current. */
  remove(connection: ChargePointConnection): boolean {
    if (this.byController.get(connection.controllerUuid) !== connection) return false;
    this.byController.delete(connection.controllerUuid);
    return true;
  }

  get(controllerUuid: string): ChargePointConnection | undefined {
    return this.byController.get(controllerUuid);
  }

  isCurrent(connection: ChargePointConnection): boolean {
    return this.byController.get(connection.controllerUuid) === connection;
  }

  all(): ChargePointConnection[] {
    return [...this.byController.values()];
  }
}
