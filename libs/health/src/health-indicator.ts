export interface HealthIndicatorResult {
  healthy: boolean;
  detail?: string;
}

/** One dependency a service needs to do its work (its database, NATS); readiness is all of them healthy. */
export interface HealthIndicator {
  readonly name: string;
  check(): Promise<HealthIndicatorResult>;
}

export const HEALTH_INDICATORS = Symbol('HEALTH_INDICATORS');

/** Route metadata that exempts a route from authentication; probes carry no tokens. */
export const PUBLIC_ROUTE = 'cpc:public-route';
