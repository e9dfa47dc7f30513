import { NativeSelect, Paper, Text, TextInput } from '@mantine/core';
import { useItem, useList } from '../api/hooks';
import type { ChargingSession } from '../api/types';
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
      <Text size="sm" c="dimmed">
        A power and energy chart appears here once the API serves a session&apos;s meter values.
      </Text>
    </>
  );
}
