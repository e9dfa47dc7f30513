import { createServiceDataSource, migrateServiceSchema } from '@cpc/database';
import { createTestDatabase, type TestDatabase } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { CONTROL_MIGRATIONS, controlDataSourceOptions } from '../data-source.js';

/** The control schema, fully migrated, in a database of its own: for the specs of single migrations. */
export interface ControlSchemaUnderTest {
  dataSource: DataSource;
  /** Undoes the migrations that came after `migration`, and it. */
  undoThrough(migration: (typeof CONTROL_MIGRATIONS)[number]): Promise<void>;
  /** Runs every migration not run yet. */
  migrate(): Promise<void>;
  drop(): Promise<void>;
}

export async function controlSchemaUnderTest(): Promise<ControlSchemaUnderTest> {
  const database: TestDatabase = await createTestDatabase();
  const dataSource = createServiceDataSource(controlDataSourceOptions(database.url));
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  return {
    dataSource,
    async undoThrough(migration) {
      const later = CONTROL_MIGRATIONS.length - CONTROL_MIGRATIONS.indexOf(migration);
      for (let undone = 0; undone < later; undone++)
        await dataSource.undoLastMigration({ transaction: 'each' });
    },
    async migrate() {
      await migrateServiceSchema(dataSource);
    },
    async drop() {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
