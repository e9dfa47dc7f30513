import { Inject, Injectable } from '@nestjs/common';
import type { OcppProtocol } from '@cpc/contracts';
import { Counter, Gauge, Registry } from 'prom-client';
import { ChargePointConnectionsRegistry } from './connections/charge-point-connections.registry.js';
import { ConcurrentHandshakesLimiter } from './handshake/concurrent-handshakes.limiter.js';

const PROTOCOLS: readonly OcppProtocol[] = ['ocpp1.6', 'ocpp2.0.1'];

/**
 * What an operator watches on a gateway instance: the charge points it holds and the OCPP calls in both directions.
 * `to_charge_point` outcomes are the OcppCallReply outcomes (`answered`, `timeout`, …, `not_sent`);
 * `from_charge_point` ones say how the gateway's handler answered (`ok`, `call_error`, `internal_error`), or
 * `over_budget` for a call refused by the charge point's incoming-call budget before any handler saw it.
 */
@Injectable()
export class OcppGatewayMetrics {
  readonly calls: Counter<'direction' | 'action' | 'outcome'>;

  constructor(
    @Inject(Registry) registry: Registry,
    connections: ChargePointConnectionsRegistry,
    handshakes: ConcurrentHandshakesLimiter,
  ) {
    this.calls = new Counter({
      name: 'ocpp_calls_total',
      help: 'OCPP calls by direction, action and outcome',
      labelNames: ['direction', 'action', 'outcome'],
      registers: [registry],
    });
    // Read from the registry at scrape time, so it can never drift from the sockets actually held.
    const connected: Gauge<'protocol'> = new Gauge({
      name: 'ocpp_connected_charge_points',
      help: 'Charge points connected to this gateway instance, by OCPP version',
      labelNames: ['protocol'],
      registers: [registry],
      collect: () => {
        for (const protocol of PROTOCOLS) connected.set({ protocol }, 0);
        for (const connection of connections.all()) connected.inc({ protocol: connection.protocol });
      },
    });
    // A queue that stays long says the credential checks (assets-service) do not keep up with the connects.
    const handshakeStates: Gauge<'state'> = new Gauge({
      name: 'ocpp_handshakes',
      help: 'WebSocket upgrades of this gateway instance in their credential check, and waiting for one',
      labelNames: ['state'],
      registers: [registry],
      collect: () => {
        handshakeStates.set({ state: 'checking' }, handshakes.inProgress);
        handshakeStates.set({ state: 'waiting' }, handshakes.waiting);
      },
    });
  }
}
