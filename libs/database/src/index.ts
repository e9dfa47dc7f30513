export * from './service-data-source.js';
export * from './ensure-database-exists.js';
export * from './database-health.indicator.js';
export * from './service-database.module.js';
export * from './transactional-outbox.js';
export * from './pool-query.js';
export * from './sql-statement.js';
export * from './query-error-logger.js';
