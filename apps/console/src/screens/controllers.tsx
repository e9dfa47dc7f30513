import {
  Button,
  Group,
  NativeSelect,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useCan, useSession } from '../api/context';
import { ApiError } from '../api/errors';
import { useItem, useList } from '../api/hooks';
import type { Command, Controller, Location, Plug } from '../api/types';
import { Link, navigate } from '../router';
import {
  choices,
  ConfirmDelete,
  DataTable,
  ErrorAlert,
  ListScreen,
  Fields,
  formatDateTime,
  LiveNote,
  PageHeader,
  StatusBadge,
  useFilters,
} from '../ui';
import { COMMANDS, CommandTable, commandsOf, SendCommandForm } from './commands';
import { ControllerConfiguration, ControllerEvents } from './controller-records';

const CONTROLLERS = '/api/v1/assets/controllers';

export function ControllerList() {
  const filters = useFilters({ name: '', connection: '' });
  const list = useList<Controller>(CONTROLLERS, 'controllers', {
    page: filters.page,
    limit: 20,
    order_by: '+name',
    'filter[name]': filters.values.name.trim() || undefined,
    'filter[connection_status]': filters.values.connection || undefined,
  });
  return (
    <ListScreen
      title="Controllers"
      noun="controllers"
      filters={
        <>
          <TextInput label="Search by name" type="search" {...filters.field('name')} />
          <NativeSelect
            label="Connection"
            {...filters.field('connection')}
            data={choices(['online', 'offline'])}
          />
        </>
      }
      list={list}
      onPage={filters.setPage}
      rowKey={(controller) => controller.uuid}
      columns={[
        {
          header: 'Name',
          cell: (controller) => <Link to={`/controllers/${controller.uuid}`}>{controller.name}</Link>,
        },
        { header: 'OCPP identity', cell: (controller) => controller.ocpp_identity },
        {
          header: 'Connection',
          cell: (controller) => <StatusBadge status={controller.connection_status} />,
        },
        { header: 'Protocol', cell: (controller) => controller.ocpp_protocol ?? '—' },
        {
          header: 'Vendor / model',
          cell: (controller) => [controller.vendor, controller.model].filter(Boolean).join(' / ') || '—',
        },
        { header: 'Last seen', cell: (controller) => formatDateTime(controller.last_seen_at) },
      ]}
    />
  );
}

export function ControllerDetail({ uuid }: { uuid: string }) {
  const can = useCan();
  const session = useSession();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const controller = useItem<Controller>(`${CONTROLLERS}/${uuid}`, 'controller', { live: true });
  const location = useItem<Location>(
    `/api/v1/assets/locations/${controller.data?.location_uuid ?? ''}`,
    'location',
    {
      enabled: controller.data !== undefined && can('asset:locations:read'),
    },
  );
  const plugs = useList<Plug>(
    '/api/v1/assets/plugs',
    'plugs',
    {
      'filter[controller_uuid]': uuid,
      limit: 50,
      order_by: '+connector_id',
    },
    { enabled: can('asset:plugs:list') },
  );
  const commands = useList<Command>(COMMANDS, 'commands', commandsOf(uuid), {
    enabled: can('control:commands:list'),
  });
  const remove = useMutation({
    mutationFn: () => session.request('DELETE', `${CONTROLLERS}/${uuid}`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [CONTROLLERS] });
      navigate(controller.data ? `/locations/${controller.data.location_uuid}` : '/controllers');
    },
  });

  if (controller.isPending) return <Text>Loading…</Text>;
  if (!controller.data) return <ErrorAlert error={controller.error} title="The controller cannot be shown" />;
  const item = controller.data;

  return (
    <>
      <PageHeader title={item.name}>
        {can('asset:controllers:delete') && (
          <Button color="red" variant="outline" onClick={() => setConfirming(true)}>
            Delete
          </Button>
        )}
      </PageHeader>
      <LiveNote updatedAt={controller.dataUpdatedAt} error={controller.error} />
      <Paper withBorder p="md">
        <Fields
          rows={[
            [
              'Connection',
              <StatusBadge
                key="c"
                status={item.connection_status}
                label={`Connection: ${item.connection_status}`}
              />,
            ],
            ['Protocol', item.ocpp_protocol],
            ['Last seen', formatDateTime(item.last_seen_at)],
            ['Vendor', item.vendor],
            ['Model', item.model],
            ['Firmware', item.firmware_version],
            ['Serial number', item.serial_number],
            ['OCPP identity', item.ocpp_identity],
            ['Security profile', item.security_profile],
            [
              'Location',
              location.data ? (
                <Link key="l" to={`/locations/${item.location_uuid}`}>
                  {location.data.name}
                </Link>
              ) : (
                item.location_uuid
              ),
            ],
            ['UUID', item.uuid],
          ]}
        />
      </Paper>
      <Title order={2} size="h3">
        Plugs
      </Title>
      <ErrorAlert error={plugs.error} title="The plugs cannot be shown" />
      <DataTable
        caption="Plugs"
        rows={plugs.data?.items}
        rowKey={(plug) => plug.uuid}
        empty="No plugs recorded for this controller."
        columns={[
          {
            header: 'Connector',
            cell: (plug) => `${plug.connector_id}${plug.name ? ` (${plug.name})` : ''}`,
          },
          { header: 'EVSE', cell: (plug) => plug.evse_id },
          { header: 'Standard', cell: (plug) => plug.standard.replace(/_/g, ' ') },
          {
            header: 'Power',
            cell: (plug) => `${plug.max_power_kw} kW ${plug.power_type.replace(/_/g, ' ')}`,
          },
          {
            header: 'Status',
            cell: (plug) => (
              <StatusBadge status={plug.status} label={`Connector ${plug.connector_id}: ${plug.status}`} />
            ),
          },
          { header: 'Since', cell: (plug) => formatDateTime(plug.status_updated_at) },
        ]}
      />
      <SendCommandForm controllerUuid={uuid} plugs={plugs.data?.items ?? []} />
      {can('control:commands:list') && (
        <>
          <Title order={2} size="h3">
            Recent commands
          </Title>
          <ErrorAlert error={commands.error} title="The commands cannot be shown" />
          <CommandTable commands={commands.data?.items} caption="Recent commands of this controller" />
        </>
      )}
      <ControllerConfiguration uuid={uuid} />
      <ControllerEvents uuid={uuid} />
      <ConfirmDelete
        opened={confirming}
        onClose={() => setConfirming(false)}
        what="controller"
        consequence={`${item.name} and its plugs are deleted for good; the charge point can no longer connect.`}
        error={remove.error}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}

/** A new controller at a location; `onDone(null)` when cancelled. */
export function ControllerCreateForm({
  locationUuid,
  onDone,
}: {
  locationUuid: string;
  onDone: (created: Controller | null) => void;
}) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState({
    name: '',
    ocpp_identity: '',
    ocpp_password: '',
    security_profile: '1',
  });
  const create = useMutation({
    mutationFn: () =>
      session.request<{ controller: Controller }>('POST', CONTROLLERS, {
        body: {
          location_uuid: locationUuid,
          name: draft.name.trim(),
          ocpp_identity: draft.ocpp_identity.trim(),
          ...(draft.ocpp_password ? { ocpp_password: draft.ocpp_password } : {}),
          security_profile: Number(draft.security_profile),
        },
      }),
    onSuccess: async ({ controller }) => {
      await queryClient.invalidateQueries({ queryKey: [CONTROLLERS] });
      onDone(controller);
    },
  });
  const errors = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const field = (name: keyof typeof draft) => ({
    value: draft[name],
    onChange: (event: { currentTarget: { value: string } }) =>
      setDraft({ ...draft, [name]: event.currentTarget.value }),
    error: errors[name],
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate aria-label="New controller">
        <Stack>
          <Title order={3} size="h4">
            New controller
          </Title>
          <ErrorAlert error={create.error} title="The controller was not created" />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" required {...field('name')} />
            <TextInput
              label="OCPP identity"
              description="The charge point's identity in its connection URL"
              required
              {...field('ocpp_identity')}
            />
            <PasswordInput
              label="OCPP password"
              description="16 to 40 characters; the charge point's Basic-auth password"
              autoComplete="new-password"
              {...field('ocpp_password')}
            />
            <NativeSelect
              label="Security profile"
              data={['0', '1', '2', '3'].map((value) => ({ value, label: `Profile ${value}` }))}
              {...field('security_profile')}
            />
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={create.isPending}>
              Create controller
            </Button>
            <Button variant="default" onClick={() => onDone(null)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
