import {
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useCan, useSession } from '../api/context';
import { ApiError } from '../api/errors';
import { useEnum, useItem, useList } from '../api/hooks';
import type { Controller, Location, Plug } from '../api/types';
import { Link, navigate } from '../router';
import {
  choices,
  ConfirmDelete,
  DataTable,
  ErrorAlert,
  ListScreen,
  Fields,
  LiveNote,
  PageHeader,
  StatusBadge,
  useFilters,
} from '../ui';
import { ControllerCreateForm } from './controllers';

const LOCATIONS = '/api/v1/assets/locations';

export function LocationList() {
  const can = useCan();
  const filters = useFilters({ name: '', status: '' });
  const statuses = useEnum('LocationBody', 'status');
  const list = useList<Location>(LOCATIONS, 'locations', {
    page: filters.page,
    limit: 20,
    order_by: '+name',
    'filter[name]': filters.values.name.trim() || undefined,
    'filter[status]': filters.values.status || undefined,
  });

  return (
    <ListScreen
      title="Locations"
      noun="locations"
      actions={
        can('asset:locations:create') && (
          <Button onClick={() => navigate('/locations/new')}>New location</Button>
        )
      }
      filters={
        <>
          <TextInput label="Search by name" type="search" {...filters.field('name')} />
          <NativeSelect label="Status" {...filters.field('status')} data={choices(statuses)} />
        </>
      }
      list={list}
      onPage={filters.setPage}
      rowKey={(location) => location.uuid}
      columns={[
        {
          header: 'Name',
          cell: (location) => <Link to={`/locations/${location.uuid}`}>{location.name}</Link>,
        },
        { header: 'Status', cell: (location) => <StatusBadge status={location.status} /> },
        { header: 'City', cell: (location) => location.city ?? '—' },
        { header: 'Charge points', cell: (location) => location.charge_point_count },
        { header: 'Created', cell: (location) => location.created_at },
      ]}
    />
  );
}

export function LocationDetail({ uuid }: { uuid: string }) {
  const can = useCan();
  const session = useSession();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [addingController, setAddingController] = useState(false);
  const location = useItem<Location>(`${LOCATIONS}/${uuid}`, 'location', { live: true });
  const controllers = useList<Controller>(
    '/api/v1/assets/controllers',
    'controllers',
    {
      'filter[location_uuid]': uuid,
      limit: 50,
      order_by: '+name',
    },
    { enabled: can('asset:controllers:list') },
  );
  const plugs = useList<Plug>(
    '/api/v1/assets/plugs',
    'plugs',
    {
      'filter[location_uuid]': uuid,
      limit: 50,
      order_by: '+connector_id',
    },
    { enabled: can('asset:plugs:list') },
  );
  const remove = useMutation({
    mutationFn: () => session.request('DELETE', `${LOCATIONS}/${uuid}`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [LOCATIONS] });
      navigate('/locations');
    },
  });

  if (location.isPending) return <Text>Loading…</Text>;
  if (!location.data) return <ErrorAlert error={location.error} title="The location cannot be shown" />;
  const item = location.data;
  const address = [
    [item.street, item.house_number].filter(Boolean).join(' '),
    [item.postal_code, item.city].filter(Boolean).join(' '),
    item.country_code,
  ]
    .filter(Boolean)
    .join(', ');

  return (
    <>
      <PageHeader title={item.name}>
        {can('asset:locations:update') && (
          <Button variant="default" onClick={() => navigate(`/locations/${uuid}/edit`)}>
            Edit
          </Button>
        )}
        {can('asset:locations:delete') && (
          <Button color="red" variant="outline" onClick={() => setConfirming(true)}>
            Delete
          </Button>
        )}
      </PageHeader>
      <LiveNote updatedAt={location.dataUpdatedAt} error={location.error} />
      <Paper withBorder p="md">
        <Fields
          rows={[
            ['Status', <StatusBadge key="s" status={item.status} />],
            ['Address', address],
            ['Coordinates', item.latitude && item.longitude ? `${item.latitude}, ${item.longitude}` : null],
            ['Operator', item.operator],
            ['Support hotline', item.support_hotline],
            ['Website', item.website],
            ['Published', item.publish ? 'yes' : 'no'],
            ['Charge points', item.charge_point_count],
            ['Description', item.description],
            ['Created', item.created_at],
            ['Updated', item.updated_at],
            ['UUID', item.uuid],
          ]}
        />
      </Paper>
      <Group justify="space-between">
        <Title order={2} size="h3">
          Controllers
        </Title>
        {can('asset:controllers:create') && !addingController && (
          <Button variant="outline" onClick={() => setAddingController(true)}>
            Add controller
          </Button>
        )}
      </Group>
      {addingController && (
        <ControllerCreateForm
          locationUuid={uuid}
          onDone={(created) =>
            created ? navigate(`/controllers/${created.uuid}`) : setAddingController(false)
          }
        />
      )}
      <ErrorAlert error={controllers.error} title="The controllers cannot be shown" />
      <DataTable
        caption="Controllers of this location"
        rows={controllers.data?.items}
        rowKey={(controller) => controller.uuid}
        empty="No controllers at this location yet."
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
          {
            header: 'Plugs',
            cell: (controller) => (
              <Group gap={4}>
                {plugs.data?.items
                  .filter((plug) => plug.controller_uuid === controller.uuid)
                  .map((plug) => (
                    <StatusBadge
                      key={plug.uuid}
                      status={plug.status}
                      label={`Connector ${plug.connector_id}: ${plug.status}`}
                    />
                  ))}
              </Group>
            ),
          },
        ]}
      />
      <ConfirmDelete
        opened={confirming}
        onClose={() => setConfirming(false)}
        what="location"
        consequence={`${item.name} is deleted for good. A location that still has controllers cannot be deleted; delete or move them first.`}
        error={remove.error}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}

const TEXT_FIELDS: { name: keyof Location; label: string; description?: string }[] = [
  { name: 'street', label: 'Street' },
  { name: 'house_number', label: 'House number' },
  { name: 'postal_code', label: 'Postal code' },
  { name: 'city', label: 'City' },
  { name: 'country_code', label: 'Country code', description: 'Three letters, e.g. DEU' },
  { name: 'latitude', label: 'Latitude', description: 'Decimal degrees, e.g. 53.5461' },
  { name: 'longitude', label: 'Longitude', description: 'Decimal degrees, e.g. 9.9661' },
  { name: 'operator', label: 'Operator' },
  {
    name: 'support_hotline',
    label: 'Support hotline',
    description: 'International format, e.g. +4940123456',
  },
  { name: 'website', label: 'Website', description: 'An http(s) address' },
];

type Draft = Record<string, string | boolean>;

function draftOf(location: Location | undefined): Draft {
  const draft: Draft = {
    name: location?.name ?? '',
    status: location?.status ?? 'active',
    publish: location?.publish ?? false,
  };
  for (const field of [...TEXT_FIELDS.map((entry) => entry.name), 'description' as const]) {
    draft[field] = (location?.[field] as string | null | undefined) ?? '';
  }
  return draft;
}

/** Creates (no uuid) or edits a location; the API's 422s appear beside the fields they name. */
export function LocationEdit({ uuid }: { uuid?: string }) {
  const existing = useItem<Location>(`${LOCATIONS}/${uuid ?? ''}`, 'location', {
    enabled: uuid !== undefined,
  });
  if (uuid && existing.isPending) return <Text>Loading…</Text>;
  if (uuid && !existing.data)
    return <ErrorAlert error={existing.error} title="The location cannot be shown" />;
  return <LocationForm key={uuid ?? 'new'} uuid={uuid} initial={uuid ? existing.data : undefined} />;
}

function LocationForm({ uuid, initial }: { uuid?: string; initial?: Location }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const statuses = useEnum('LocationBody', 'status');
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      uuid
        ? session.request<{ location: Location }>('PATCH', `${LOCATIONS}/${uuid}`, { body })
        : session.request<{ location: Location }>('POST', LOCATIONS, { body }),
    onSuccess: async ({ location }) => {
      await queryClient.invalidateQueries({ queryKey: [LOCATIONS] });
      await queryClient.invalidateQueries({ queryKey: [`${LOCATIONS}/${location.uuid}`] });
      navigate(`/locations/${location.uuid}`, { replace: true });
    },
  });
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const shownFields = new Set([
    'name',
    'status',
    'publish',
    'description',
    ...TEXT_FIELDS.map((entry) => entry.name),
  ]);
  const otherErrors = Object.entries(fieldErrors).filter(([field]) => !shownFields.has(field));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(draft)) {
      if (typeof value === 'boolean' || name === 'name' || name === 'status') body[name] = value;
      // Creating leaves empty fields out; editing clears them (null).
      else if (value.trim() !== '') body[name] = value.trim();
      else if (uuid) body[name] = null;
    }
    save.mutate(body);
  };
  const text = (name: string) => ({
    value: draft[name] as string,
    onChange: (event: { currentTarget: { value: string } }) =>
      setDraft({ ...draft, [name]: event.currentTarget.value }),
    error: fieldErrors[name],
  });

  return (
    <>
      <PageHeader title={uuid ? `Edit ${initial?.name ?? 'location'}` : 'New location'} />
      <form onSubmit={submit} noValidate aria-label={uuid ? 'Edit location' : 'New location'}>
        <Stack>
          {save.error !== null && (
            <ErrorAlert
              error={save.error}
              title={
                otherErrors.length === 0 && Object.keys(fieldErrors).length > 0
                  ? 'Check the marked fields'
                  : 'Not saved'
              }
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" required {...text('name')} />
            <NativeSelect
              label="Status"
              value={draft.status as string}
              onChange={(event) => setDraft({ ...draft, status: event.currentTarget.value })}
              error={fieldErrors.status}
              data={choices(statuses).slice(1)}
            />
            {TEXT_FIELDS.map((field) => (
              <TextInput
                key={field.name}
                label={field.label}
                description={field.description}
                {...text(field.name)}
              />
            ))}
          </SimpleGrid>
          <Textarea label="Description" autosize minRows={2} {...text('description')} />
          <Checkbox
            label="Published"
            checked={draft.publish as boolean}
            onChange={(event) => setDraft({ ...draft, publish: event.currentTarget.checked })}
            error={fieldErrors.publish}
          />
          <Group>
            <Button type="submit" loading={save.isPending}>
              {uuid ? 'Save' : 'Create location'}
            </Button>
            <Button variant="default" onClick={() => navigate(uuid ? `/locations/${uuid}` : '/locations')}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
