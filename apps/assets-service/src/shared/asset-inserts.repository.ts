import {
  insertingTransactionMark,
  markInsertingTransaction,
  type SqlStatement,
  type VisibilityHorizon,
  visibilityHorizonStatement,
} from '@cpc/database';
import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * The tables of the asset lists walked by created_at. Every insert into one runs in a transaction marked for its table
 * (insertingTransactionMark) and stamps created_at with its statement's start, after the mark, so a list page reads
 * the table's visibility horizon first and ends before any row still being committed (listPage).
 */
export const LISTED_ASSET_TABLES = [
  'assets.locations',
  'assets.controllers',
  'assets.plugs',
  'assets.sensors',
  'assets.id_tokens',
] as const;
export type ListedAssetTable = (typeof LISTED_ASSET_TABLES)[number];

function isListedAssetTable(table: string): table is ListedAssetTable {
  return (LISTED_ASSET_TABLES as readonly string[]).includes(table);
}

type Mark = SqlStatement<Record<never, never>, { marked: string }>;
type Horizon = SqlStatement<Record<never, never>, VisibilityHorizon>;

const MARKS = Object.fromEntries(
  LISTED_ASSET_TABLES.map((table) => [table, insertingTransactionMark(table)]),
) as Record<ListedAssetTable, Mark>;

/** The visibility horizon of each listed table (visibilityHorizonStatement, inserts marked per transaction). */
export const ASSET_LIST_HORIZONS = Object.fromEntries(
  LISTED_ASSET_TABLES.map((table) => [table, visibilityHorizonStatement(table, 'transaction')]),
) as Record<ListedAssetTable, Horizon>;

/** Marks the transaction of `manager` as inserting into `table`, before the insert stamps its rows. */
export function markAssetInsert(manager: EntityManager, table: ListedAssetTable): Promise<void> {
  return markInsertingTransaction(manager, MARKS[table]);
}

/** The SQL stamp of an asset row: when its insert statement started, which is after the transaction's mark. */
export const INSERT_STAMP_SQL = 'statement_timestamp()';

/**
 * Inserts one row of a listed table in the transaction of `manager`: marks the transaction, then inserts the row with
 * created_at and updated_at stamped by PostgreSQL (INSERT_STAMP_SQL, not the service's clock, which is neither the
 * database's nor after the mark), and sets both on `row`.
 */
export async function insertAsset<TEntity extends ObjectLiteral & { createdAt: Date; updatedAt: Date }>(
  manager: EntityManager,
  target: EntityTarget<TEntity>,
  row: TEntity,
): Promise<void> {
  const table = manager.connection.getMetadata(target).tablePath;
  if (!isListedAssetTable(table)) throw new Error(`${table} is not a listed asset table`);
  await markAssetInsert(manager, table);
  const stamp = () => INSERT_STAMP_SQL;
  const inserted = await manager
    .createQueryBuilder()
    .insert()
    .into(target)
    .values({ ...row, createdAt: stamp, updatedAt: stamp })
    .returning(['createdAt', 'updatedAt'])
    .updateEntity(false)
    .execute();
  const [stamped] = inserted.raw as { created_at: Date; updated_at: Date }[];
  row.createdAt = stamped.created_at;
  row.updatedAt = stamped.updated_at;
}

/** For the SQL snapshots. */
export const ASSET_INSERTS_STATEMENTS = [
  ...LISTED_ASSET_TABLES.map((table) => MARKS[table]),
  ...LISTED_ASSET_TABLES.map((table) => ASSET_LIST_HORIZONS[table]),
];
