import { NativeSelect, Paper, SimpleGrid, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useItem, useList } from '../api/hooks';
import type { ChargingSession } from '../api/types';
import { Link } from '../router';
import {
  ErrorAlert,
  Fields,
  formatDateTime,
  formatDuration,
  formatEnergy,
  LiveNote,
  PageHeader,
  Paging,
  StatusBadge,
} from '../ui';

const SESSIONS = '/api/v1/control/charging-sessions';

export function ChargingSessionList() {
  const [status, setStatus] = useState('');
  const [idTag, setIdTag] = useState('');
  const [page, setPage] = useState(1);
  const list = useList<ChargingSession>(SESSIONS, 'charging_sessions', {
    page,
    limit: 20,
    order_by: '-started_at',
    'filter[status]': status || undefined,
    'filter[id_tag]': idTag.trim() || undefined,
  });
  return (
    <>
      <PageHeader title="Charging sessions" />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <NativeSelect
          label="Status"
          value={status}
          onChange={(event) => {
            setStatus(event.currentTarget.value);
            setPage(1);
          }}
          data={[
            { value: '', label: 'Any' },
            { value: 'active', label: 'active' },
            { value: 'completed', label: 'completed' },
          ]}
        />
        <TextInput
          label="ID tag"
          value={idTag}
          onChange={(event) => {
            setIdTag(event.currentTarget.value);
            setPage(1);
          }}
        />
      </SimpleGrid>
      <ErrorAlert error={list.error} title="The charging sessions cannot be shown" />
      <Table.ScrollContainer minWidth={640}>
        <Table striped aria-label="Charging sessions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Started</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Controller</Table.Th>
              <Table.Th>Connector</Table.Th>
              <Table.Th>ID tag</Table.Th>
              <Table.Th>Energy</Table.Th>
              <Table.Th>Duration</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data?.items.map((session) => (
              <Table.Tr key={session.uuid}>
                <Table.Td>
                  <Link to={`/charging-sessions/${session.uuid}`}>{formatDateTime(session.started_at)}</Link>
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={session.status} />
                </Table.Td>
                <Table.Td>
                  <Link to={`/controllers/${session.controller_uuid}`}>
                    {session.controller_uuid.slice(0, 8)}
                  </Link>
                </Table.Td>
                <Table.Td>{session.connector_id ?? '—'}</Table.Td>
                <Table.Td>{session.id_tag ?? '—'}</Table.Td>
                <Table.Td>{formatEnergy(session.energy_wh)}</Table.Td>
                <Table.Td>{formatDuration(session.started_at, session.stopped_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {list.data?.items.length === 0 && <Text>No charging sessions match.</Text>}
      <Paging pagination={list.data?.pagination} onPage={setPage} label="Pages of charging sessions" />
    </>
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
