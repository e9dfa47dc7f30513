import { type ListWebhookDeliveriesPayload, WebhookSubjects } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import {
  buildPagination,
  type CursorPagination,
  cursorKeyKinds,
  cursorPage,
  cursorScope,
  keysetParameters,
  keysetRead,
  LOWEST_KEY_VALUE,
  pageAtHorizon,
  pageCursorLinks,
  type PageWithCursors,
  pageOffset,
  readCursorParameter,
} from '@cpc/pagination';
import type { DataSource } from 'typeorm';
import {
  deliveriesDrawnSeq,
  deliveriesHeldBack,
  deliveriesList,
  deliveriesListBelow,
  deliveriesVisibleBelow,
  type DeliveryRow,
  type KeyedDeliveryRow,
} from '../repositories/deliveries.repository.js';

/** cursorPage compares horizon keys as text: seqs (positive bigints) padded to one width compare as numbers. */
function seqKey(seq: string): string {
  return seq.padStart(20, '0');
}

/**
 * The horizon of the deliveries list (deliveriesVisibleBelow): the last seq drawn first, then the inserts in flight,
 * each by a statement of its own, in this order, so that an insert marked after the second read draws above the first.
 */
async function deliveriesHorizon(dataSource: DataSource): Promise<{ below: string; held: boolean }> {
  const [{ drawn }] = await runStatement(dataSource, deliveriesDrawnSeq, {});
  const [horizon] = await runStatement(dataSource, deliveriesVisibleBelow, { drawn });
  return horizon;
}

/**
 * One page of a subscription's deliveries, newest first: numbered, or by cursor. Keyed by seq, drawn at the insert:
 * a delivery can commit after deliveries with higher seqs, so every page read towards newer deliveries (numbered, and
 * `prev`) ends at the horizon, below which every delivery is readable; its cursors never pass one still in flight.
 */
export async function readDeliveriesPage(
  dataSource: DataSource,
  tenantUuid: string,
  payload: ListWebhookDeliveriesPayload,
): Promise<{ rows: DeliveryRow[]; pagination: PageWithCursors | CursorPagination }> {
  const filter = { tenantUuid, subscriptionUuid: payload.uuid, status: payload.status ?? null };
  const scope = cursorScope(WebhookSubjects.listDeliveries, tenantUuid, {
    subscription: payload.uuid,
    status: payload.status,
  });
  const { limit } = payload;
  const keyOf = (row: KeyedDeliveryRow) => [row.cursor_key_0];
  const strip = ({ cursor_key_0: _key, ...row }: KeyedDeliveryRow): DeliveryRow => row;

  if (payload.cursor !== undefined) {
    const cursor = readCursorParameter(scope, payload.cursor, cursorKeyKinds(deliveriesList.key));
    const towardsNewer = cursor?.direction === 'before';
    // Read towards older deliveries, the page stays below the horizon of the page its cursor came from, where every
    // delivery is readable already: only a read towards newer ones needs one of its own.
    const horizon = towardsNewer ? await deliveriesHorizon(dataSource) : undefined;
    const fetched = await runStatement(
      dataSource,
      towardsNewer ? deliveriesList.before : deliveriesList.after,
      {
        ...filter,
        ...keysetParameters(deliveriesList.key, cursor),
        limit: limit + 1,
      },
    );
    const { rows, pagination } = cursorPage(fetched, {
      scope,
      limit,
      cursor,
      // The statements read in the cursor's direction; cursorPage only turns a backwards page round.
      read: keysetRead('ASC', cursor),
      keyOf,
      horizon: horizon && { at: seqKey(horizon.below), timeOf: (row) => seqKey(row.cursor_key_0) },
    });
    return { rows: rows.map(strip), pagination };
  }

  // A numbered page hands out cursors, so it starts below the horizon too; deliveries held back above it are newer
  // than it (its prev), looked for only while an insert was in flight.
  const [{ rows, heldBack }, [{ total }]] = await Promise.all([
    deliveriesHorizon(dataSource).then(({ below, held }) =>
      pageAtHorizon<KeyedDeliveryRow>(
        { at: seqKey(below), held },
        {
          ascending: false,
          limit,
          oldest: [LOWEST_KEY_VALUE.bigint],
          timeOf: (row) => seqKey(row.cursor_key_0),
          read: () =>
            runStatement(dataSource, deliveriesListBelow, {
              ...filter,
              below,
              limit,
              offset: pageOffset(payload),
            }),
          heldAbove: async () =>
            (await runStatement(dataSource, deliveriesHeldBack, { ...filter, below }))[0].held_back,
        },
      ),
    ),
    runStatement(dataSource, deliveriesList.count, filter),
  ]);
  const pagination = pageCursorLinks(rows, buildPagination(payload, total), scope, keyOf, heldBack);
  return { rows: rows.map(strip), pagination };
}
