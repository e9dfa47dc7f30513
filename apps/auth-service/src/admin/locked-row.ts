import { NotFoundError } from '@cpc/errors';
import type { EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';

/**
 * The row `uuid` of the tenant, locked for the change's transaction; another tenant's row is not found (404), as if
 * it did not exist.
 */
export async function lockedRow<TEntity extends ObjectLiteral & { tenantUuid: string; uuid: string }>(
  manager: EntityManager,
  entity: EntityTarget<TEntity>,
  tenantUuid: string,
  uuid: string,
  what: string,
): Promise<TEntity> {
  const row = await manager.findOne(entity, {
    where: { tenantUuid, uuid } as FindOptionsWhere<TEntity>,
    lock: { mode: 'pessimistic_write' },
  });
  if (!row) throw new NotFoundError(what);
  return row;
}
