import { NativeSelect, Paper, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCan, useSession } from '../api/context';
import { energyDelivered, ENERGY, formatPower, POWER, powerFromEnergy, seriesOf } from '../api/meter-values';
import { POLL, pollWithBackoff } from '../api/polling';
import type { ApiSession } from '../api/session';
import { LineChart } from '../chart';
import { useItem, useList } from '../api/hooks';
import type { ChargingSession, MeterValue, Pagination } from '../api/types';
import { Link } from '../router';
import {
  choices,
  ErrorAlert,
  ListScreen,
  Fields,
  formatDateTime,
  formatDuration,
  formatEnergy,
  LiveNote,
  PageHeader,
  StatusBadge,
  useFilters,
} from '../ui';

const SESSIONS = '/api/v1/control/charging-sessions';

export function ChargingSessionList() {
  const filters = useFilters({ status: '', idTag: '' });
  const list = useList<ChargingSession>(SESSIONS, 'charging_sessions', {
    page: filters.page,
    limit: 20,
    order_by: '-started_at',
    'filter[status]': filters.values.status || undefined,
    'filter[id_tag]': filters.values.idTag.trim() || undefined,
  });
  return (
    <ListScreen
      title="Charging sessions"
      noun="charging sessions"
      filters={
        <>
          <NativeSelect label="Status" {...filters.field('status')} data={choices(['active', 'completed'])} />
          <TextInput label="ID tag" {...filters.field('idTag')} />
        </>
      }
      list={list}
      onPage={filters.setPage}
      rowKey={(session) => session.uuid}
      columns={[
        {
          header: 'Started',
          cell: (session) => (
            <Link to={`/charging-sessions/${session.uuid}`}>{formatDateTime(session.started_at)}</Link>
          ),
        },
        { header: 'Status', cell: (session) => <StatusBadge status={session.status} /> },
        {
          header: 'Controller',
          cell: (session) => (
            <Link to={`/controllers/${session.controller_uuid}`}>{session.controller_uuid.slice(0, 8)}</Link>
          ),
        },
        { header: 'Connector', cell: (session) => session.connector_id ?? '—' },
        { header: 'ID tag', cell: (session) => session.id_tag ?? '—' },
        { header: 'Energy', cell: (session) => formatEnergy(session.energy_wh) },
        { header: 'Duration', cell: (session) => formatDuration(session.started_at, session.stopped_at) },
      ]}
    />
  );
}

export function ChargingSessionDetail({ uuid }: { uuid: string }) {
  const session = useItem<ChargingSession>(`${SESSIONS}/${uuid}`, 'charging_session', {
    live: (item) => item?.status !== 'completed',
  });
  if (session.isPending) return <Text>Loading…</Text>;
  if (!session.data) return <ErrorAlert error={session.error} title="The charging session cannot be shown" />;
  const item = session.data;
  return (
    <>
      <PageHeader title={`Charging session ${item.ocpp_transaction_id}`} />
      {item.status === 'active' && <LiveNote updatedAt={session.dataUpdatedAt} error={session.error} />}
      <Paper withBorder p="md">
        <Fields
          rows={[
            ['Status', <StatusBadge key="s" status={item.status} />],
            ['Energy', formatEnergy(item.energy_wh)],
            ['Duration', formatDuration(item.started_at, item.stopped_at)],
            ['Started', formatDateTime(item.started_at)],
            ['Stopped', formatDateTime(item.stopped_at)],
            ['Stop reason', item.stop_reason],
            ['Meter start', formatEnergy(item.meter_start_wh)],
            ['Meter stop', formatEnergy(item.meter_stop_wh)],
            ['ID tag', item.id_tag],
            [
              'Controller',
              <Link key="c" to={`/controllers/${item.controller_uuid}`}>
                {item.controller_uuid}
              </Link>,
            ],
            ['Connector', item.connector_id],
            ['EVSE', item.evse_id],
            ['UUID', item.uuid],
          ]}
        />
      </Paper>
      <SessionCharts session={item} />
    </>
  );
}

/** At most this many pages of 50 samples per measurand (1,000 samples): enough for a day at a sample a minute and a half. */
const MAX_PAGES = 20;

/** Every sample of `measurand` of a session, oldest first, page by page (at most MAX_PAGES). */
async function allMeterValues(
  session: ApiSession,
  uuid: string,
  measurand: string,
): Promise<{ values: MeterValue[]; complete: boolean }> {
  const values: MeterValue[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const body = await session.request<{ meter_values: MeterValue[]; pagination: Pagination }>(
      'GET',
      `${SESSIONS}/${uuid}/meter-values`,
      { query: { page, limit: 50, 'filter[measurand]': measurand } },
    );
    values.push(...body.meter_values);
    if (!body.pagination.has_more) return { values, complete: true };
  }
  return { values, complete: false };
}

/**
 * Power and energy over the session, from its meter values; asked again every POLL.listMs while it runs. Power is
 * the charge point's Power.Active.Import, or, when it reports none, worked out from the energy register.
 */
function SessionCharts({ session: item }: { session: ChargingSession }) {
  const session = useSession();
  const can = useCan();
  const active = item.status === 'active';
  const meterValues = useQuery({
    queryKey: [`${SESSIONS}/${item.uuid}/meter-values`],
    queryFn: async () => {
      const [power, energy] = await Promise.all([
        allMeterValues(session, item.uuid, POWER),
        allMeterValues(session, item.uuid, ENERGY),
      ]);
      return { values: [...power.values, ...energy.values], complete: power.complete && energy.complete };
    },
    enabled: can('control:charging-sessions:read'),
    refetchInterval: active ? pollWithBackoff(POLL.listMs) : false,
  });
  if (!can('control:charging-sessions:read')) return null;
  if (meterValues.isPending) return <Text>Loading the meter values…</Text>;
  if (!meterValues.data)
    return <ErrorAlert error={meterValues.error} title="The meter values cannot be shown" />;

  const energy = energyDelivered(meterValues.data.values, item.meter_start_wh);
  const reported = seriesOf(meterValues.data.values, POWER);
  const power = reported.length > 0 ? reported : powerFromEnergy(energy);
  return (
    <>
      <Title order={2} size="h3">
        Power and energy
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <LineChart
          title={reported.length > 0 ? 'Power' : 'Power (from the energy register)'}
          points={power}
          format={formatPower}
          empty="The charge point has reported no power for this session (nor two energy readings to work it out from)."
        />
        <LineChart
          title="Energy delivered"
          points={energy}
          format={(wh) => formatEnergy(Math.round(wh))}
          empty="The charge point has reported no energy readings for this session."
        />
      </SimpleGrid>
      {!meterValues.data.complete && (
        <Text size="sm">The charts show the first {MAX_PAGES * 50} samples of each measurand.</Text>
      )}
    </>
  );
}
