import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseHealthIndicator } from './database-health.indicator.js';
import { createServiceDataSource, type ServiceDataSourceOptions } from './service-data-source.js';

/**
 * Wires a service's DataSource into Nest (repositories via @InjectRepository) and provides its health indicator.
 * Migrations are not run here: `migrate` runs them before the service starts (a Job on Kubernetes).
 */
@Global()
@Module({})
export class ServiceDatabaseModule {
  static register(options: ServiceDataSourceOptions): DynamicModule {
    return {
      module: ServiceDatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          // A database that is down at start-up gets a few seconds; after that the orchestrator's restart takes over.
          useFactory: () => ({ retryAttempts: 5, retryDelay: 1000 }),
          dataSourceFactory: async () => createServiceDataSource(options).initialize(),
        }),
      ],
      providers: [DatabaseHealthIndicator],
      exports: [DatabaseHealthIndicator],
    };
  }
}
