import { Transport, type NatsOptions } from '@nestjs/microservices';

/**
 * Options for a service's NATS server. Every instance of a service joins the same queue group, so each request is
 * handled by exactly one instance and replicas scale out without configuration.
 */
export function natsMicroserviceOptions(natsUrl: string, queueGroup: string): NatsOptions {
  return {
    transport: Transport.NATS,
    options: {
      servers: natsUrl.split(',').map((server) => server.trim()),
      queue: queueGroup,
      name: queueGroup,
      gracefulShutdown: true,
      gracePeriod: 5000,
    },
  };
}
