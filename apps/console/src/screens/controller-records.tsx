import { Code, NativeSelect, Text, TextInput } from '@mantine/core';
import { useEnum, useList } from '../api/hooks';
import type { ConfigurationEntry, ControllerEvent } from '../api/types';
import { Link } from '../router';
import { choices, formatDateTime, ListScreen, StatusBadge, useFilters } from '../ui';

/**
 * What a controller's charge point reported: its configuration (the latest value of every key or variable, with
 * what reported it) and its event log (connections, boots, statuses, firmware, security). Both on the controller's
 * page, for a role with `asset:controllers:read`.
 */
const CONTROLLERS = '/api/v1/assets/controllers';

export function ControllerConfiguration({ uuid }: { uuid: string }) {
  const filters = useFilters({ prefix: '', component: '' });
  const list = useList<ConfigurationEntry>(`${CONTROLLERS}/${uuid}/configuration`, 'configuration', {
    page: filters.page,
    limit: 20,
    'filter[key_prefix]': filters.values.prefix.trim() || undefined,
    'filter[component]': filters.values.component.trim() || undefined,
  });
  return (
    <ListScreen
      title="Configuration"
      headingLevel={2}
      noun="configuration keys"
      caption="Configuration as the charge point reported it, by key"
      filters={
        <>
          <TextInput label="Key starts with" type="search" {...filters.field('prefix')} />
          <TextInput label="Component (2.0.1)" type="search" {...filters.field('component')} />
        </>
      }
      list={list}
      onPage={filters.setPage}
      rowKey={(entry) => entry.key}
      minWidth={760}
      columns={[
        { header: 'Key', cell: (entry) => <Code>{entry.key}</Code> },
        {
          header: 'Value',
          cell: (entry) => <Text style={{ overflowWrap: 'anywhere' }}>{entry.value ?? '—'}</Text>,
        },
        { header: 'Mutability', cell: (entry) => entry.mutability ?? '—' },
        { header: 'Answer', cell: (entry) => entry.status },
        {
          header: 'Reported',
          cell: (entry) => (
            <>
              {formatDateTime(entry.reported_at)} by{' '}
              {entry.source_command_uuid ? (
                <Link to={`/commands/${entry.source_command_uuid}`}>{entry.source_message}</Link>
              ) : (
                entry.source_message
              )}
            </>
          ),
        },
      ]}
    />
  );
}

/** An event's details in words: `status: Available, connector id: 1`. */
export function describeDetails(details: ControllerEvent['details']): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== '')
    .map(([name, value]) => `${name.replace(/_/g, ' ')}: ${String(value)}`)
    .join(', ');
}

export function ControllerEvents({ uuid }: { uuid: string }) {
  const filters = useFilters({ kind: '' });
  const kinds = useEnum('ControllerEventBody', 'kind');
  const list = useList<ControllerEvent>(
    `${CONTROLLERS}/${uuid}/events`,
    'events',
    { page: filters.page, limit: 20, 'filter[kind]': filters.values.kind || undefined },
    { live: true },
  );
  return (
    <ListScreen
      title="Events"
      headingLevel={2}
      noun="events"
      caption="Events of this controller, newest first"
      filters={<NativeSelect label="Event kind" {...filters.field('kind')} data={choices(kinds)} />}
      list={list}
      onPage={filters.setPage}
      rowKey={(event) => event.uuid}
      columns={[
        { header: 'When', cell: (event) => formatDateTime(event.occurred_at) },
        {
          header: 'Kind',
          cell: (event) => (
            <StatusBadge status={event.kind} label={`Event: ${event.kind.replace(/_/g, ' ')}`} />
          ),
        },
        {
          header: 'Details',
          cell: (event) => (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {describeDetails(event.details) || '—'}
            </Text>
          ),
        },
      ]}
    />
  );
}
