import { migrateServiceSchema } from '@cpc/database';
import { createTestDatabase, type TestDatabase } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { createWebhooksDataSource } from '../data-source.js';

/** A test database of its own with the webhooks schema migrated, and webhook-service's DataSource on it. */
export interface WebhooksTestDatabase {
  database: TestDatabase;
  dataSource: DataSource;
  /** Closes the DataSource and drops the database. */
  drop(): Promise<void>;
}

export async function createWebhooksTestDatabase(): Promise<WebhooksTestDatabase> {
  const database = await createTestDatabase();
  const dataSource = createWebhooksDataSource(database.url);
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  return {
    database,
    dataSource,
    drop: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}

/** Enabled subscriptions of `tenant` to `command.status_changed` at a receiver that is never called. */
export async function insertCommandSubscriptions(
  dataSource: DataSource,
  tenant: string,
  subscriptions: string[],
): Promise<void> {
  await dataSource.query(
    `INSERT INTO webhooks.subscriptions (uuid, tenant_uuid, url, event_types, secret_ciphertext)
     SELECT uuid, $1, 'https://receiver.example/hook', ARRAY['command.status_changed'], 'sealed'
       FROM unnest($2::uuid[]) AS uuid`,
    [tenant, subscriptions],
  );
}
