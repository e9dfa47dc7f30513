import {
  Button,
  Checkbox,
  Code,
  Fieldset,
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
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import {
  commandTypeForms,
  type FormValue,
  type JsonSchema,
  type OpenApiDocument,
  resolveSchema,
  schemaType,
  toRequestValue,
} from '../api/command-schemas';
import { useCan, useSession } from '../api/context';
import { ApiError } from '../api/errors';
import { useEnum, useItem, useList, useOpenApi } from '../api/hooks';
import type { ChargingSession, Command, Plug } from '../api/types';
import { Link } from '../router';
import {
  choices,
  DataTable,
  ErrorAlert,
  Fields,
  formatDateTime,
  LiveNote,
  PageHeader,
  Paging,
  StatusBadge,
  useFilters,
} from '../ui';

export const COMMANDS = '/api/v1/control/commands';
const label = (value: string) => value.replace(/_/g, ' ');

function targetLink(command: Command) {
  if (command.target_type === 'controller')
    return <Link to={`/controllers/${command.target_uuid}`}>controller</Link>;
  if (command.target_type === 'charging_session')
    return <Link to={`/charging-sessions/${command.target_uuid}`}>charging session</Link>;
  return <Text span>connector (plug {command.target_uuid.slice(0, 8)})</Text>;
}

export function CommandTable({ commands, caption }: { commands: Command[] | undefined; caption: string }) {
  return (
    <DataTable
      caption={caption}
      rows={commands}
      rowKey={(command) => command.command_uuid}
      empty="No commands match."
      columns={[
        {
          header: 'Command',
          cell: (command) => <Link to={`/commands/${command.command_uuid}`}>{label(command.type)}</Link>,
        },
        { header: 'Target', cell: targetLink },
        { header: 'Status', cell: (command) => <StatusBadge status={command.status} /> },
        { header: 'Created', cell: (command) => formatDateTime(command.created_at) },
        { header: 'Completed', cell: (command) => formatDateTime(command.completed_at) },
      ]}
    />
  );
}

/** The spec's list: filters on target type, target, type and status; order by created_at; pages of 20. */
export function CommandList() {
  const filters = useFilters({
    target_type: '',
    target_uuid: '',
    type: '',
    status: '',
    order: '-created_at',
  });
  const { values } = filters;
  const list = useList<Command>(COMMANDS, 'commands', {
    page: filters.page,
    limit: 20,
    order_by: values.order,
    'filter[target_type]': values.target_type || undefined,
    'filter[target_uuid]': values.target_uuid.trim() || undefined,
    'filter[type]': values.type || undefined,
    'filter[status]': values.status || undefined,
  });
  const fieldErrors = list.error instanceof ApiError ? list.error.fieldErrors() : {};
  const types = useEnum('CommandBody', 'type');
  const statuses = useEnum('CommandBody', 'status');
  const targetTypes = useEnum('CommandBody', 'target_type');

  return (
    <>
      <PageHeader title="Commands" />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
        <NativeSelect label="Type" {...filters.field('type')} data={choices(types)} />
        <NativeSelect label="Status" {...filters.field('status')} data={choices(statuses)} />
        <NativeSelect label="Target type" {...filters.field('target_type')} data={choices(targetTypes)} />
        <TextInput
          label="Target UUID"
          {...filters.field('target_uuid')}
          error={fieldErrors['filter.target_uuid']}
        />
        <NativeSelect
          label="Order"
          {...filters.field('order')}
          data={[
            { value: '-created_at', label: 'Newest first' },
            { value: '+created_at', label: 'Oldest first' },
          ]}
        />
      </SimpleGrid>
      <ErrorAlert error={list.error} title="The commands cannot be shown" />
      <CommandTable commands={list.data?.items} caption="Commands" />
      <Paging pagination={list.data?.pagination} onPage={filters.setPage} label="Pages of commands" />
    </>
  );
}

const isRunning = (command: Command | undefined) => !command || !command.completed_at;

/** One command, polled until it has ended (`completed_at` set). */
export function CommandProgress({ uuid }: { uuid: string }) {
  const command = useItem<Command>(`${COMMANDS}/${uuid}`, 'command', { live: isRunning });
  if (!command.data) return <ErrorAlert error={command.error} title="The command cannot be shown" />;
  const item = command.data;
  return (
    <Stack gap="xs">
      <Group gap="xs" aria-live="polite" role="status">
        <Text span fw={600}>
          {label(item.type)}
        </Text>
        <StatusBadge status={item.status} label={`Command status: ${item.status}`} />
        {isRunning(item) && (
          <Text span size="sm" c="dimmed">
            followed live until it ends…
          </Text>
        )}
      </Group>
      {item.result && (
        <Text size="sm">
          {item.result.status && (
            <>
              Charge point answered: <b>{item.result.status}</b>.{' '}
            </>
          )}
          {item.result.error && (
            <>
              Failure: <b>{label(item.result.error)}</b>.
            </>
          )}
        </Text>
      )}
      <Link to={`/commands/${uuid}`}>Open the command</Link>
    </Stack>
  );
}

export function CommandDetail({ uuid }: { uuid: string }) {
  const command = useItem<Command>(`${COMMANDS}/${uuid}`, 'command', { live: isRunning });
  if (command.isPending) return <Text>Loading…</Text>;
  if (!command.data) return <ErrorAlert error={command.error} title="The command cannot be shown" />;
  const item = command.data;
  return (
    <>
      <PageHeader title={`Command: ${label(item.type)}`} />
      {isRunning(item) && <LiveNote updatedAt={command.dataUpdatedAt} error={command.error} />}
      <Paper withBorder p="md">
        <Fields
          rows={[
            ['Status', <StatusBadge key="s" status={item.status} label={`Command status: ${item.status}`} />],
            ['Target', targetLink(item)],
            ['Target UUID', item.target_uuid],
            ['Created', formatDateTime(item.created_at)],
            ['Completed', formatDateTime(item.completed_at)],
            ['Charge point answer', item.result?.status],
            ['Failure', item.result?.error ? label(item.result.error) : null],
            ['UUID', item.command_uuid],
          ]}
        />
      </Paper>
      {item.result && (
        <>
          <Title order={2} size="h3">
            Result
          </Title>
          <Code block>{JSON.stringify(item.result, null, 2)}</Code>
        </>
      )}
    </>
  );
}

/** A field for one parameter of the schema; objects become a fieldset of their fields. */
function SchemaField({
  document,
  schema,
  name,
  path,
  required,
  value,
  onChange,
  errors,
}: {
  document: OpenApiDocument;
  schema: JsonSchema;
  name: string;
  path: string;
  required: boolean;
  value: FormValue | undefined;
  onChange: (value: FormValue) => void;
  errors: Record<string, string>;
}) {
  const resolved = resolveSchema(document, schema);
  const type = schemaType(resolved);
  const fieldLabel = label(name);
  const description = resolved.description;
  const error = errors[path];
  if (type === 'object') {
    const record = typeof value === 'object' ? value : {};
    const children = Object.entries(resolved.properties ?? {});
    const isObject = ([, childSchema]: [string, JsonSchema]) =>
      schemaType(resolveSchema(document, childSchema)) === 'object';
    const field = ([child, childSchema]: [string, JsonSchema]) => (
      <SchemaField
        key={child}
        document={document}
        schema={childSchema}
        name={child}
        path={`${path}.${child}`}
        required={(resolved.required ?? []).includes(child)}
        value={record[child]}
        onChange={(childValue) => onChange({ ...record, [child]: childValue })}
        errors={errors}
      />
    );
    // Plain fields side by side; nested objects below them, at full width.
    return (
      <Fieldset legend={fieldLabel} variant="filled">
        <Stack gap="sm">
          {description && (
            <Text size="xs" c="dimmed">
              {description}
            </Text>
          )}
          {error && (
            <Text size="sm" c="red.9" role="alert">
              {error}
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {children.filter((entry) => !isObject(entry)).map(field)}
          </SimpleGrid>
          {children.filter(isObject).map(field)}
        </Stack>
      </Fieldset>
    );
  }
  if (type === 'boolean') {
    return (
      <Checkbox
        label={fieldLabel}
        description={description}
        checked={value === true}
        onChange={(event) => onChange(event.currentTarget.checked)}
        error={error}
      />
    );
  }
  const text = typeof value === 'string' ? value : '';
  if (resolved.enum) {
    return (
      <NativeSelect
        label={fieldLabel}
        description={description}
        required={required}
        value={text}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={error}
        data={[
          { value: '', label: required ? 'Choose…' : 'Not set' },
          ...resolved.enum.map((entry) => ({ value: String(entry), label: String(entry) })),
        ]}
      />
    );
  }
  if (type === 'array') {
    const item = resolveSchema(document, resolved.items);
    const itemFields = Object.keys(item.properties ?? {}).join(', ');
    return (
      <Textarea
        label={`${fieldLabel} (JSON list)`}
        description={`${description ?? ''}${itemFields ? ` Each item: {${itemFields}}.` : ''}`.trim()}
        required={required}
        autosize
        minRows={2}
        value={text}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={error}
      />
    );
  }
  const numeric = type === 'integer' || type === 'number';
  const range =
    numeric && (resolved.minimum !== undefined || resolved.maximum !== undefined)
      ? ` (${resolved.minimum ?? '…'} to ${resolved.maximum ?? '…'})`
      : '';
  return (
    <TextInput
      label={fieldLabel}
      description={`${description ?? ''}${range}`.trim() || undefined}
      required={required}
      inputMode={numeric ? 'decimal' : undefined}
      placeholder={resolved.format === 'date-time' ? '2030-01-31T22:00:00Z' : undefined}
      value={text}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
    />
  );
}

/**
 * "Send command" for a controller: one form per command type, built from the OpenAPI description of its target types
 * and parameters; the command sent is then followed live until it ends.
 */
export function SendCommandForm({ controllerUuid, plugs }: { controllerUuid: string; plugs: Plug[] }) {
  const session = useSession();
  const can = useCan();
  const openApi = useOpenApi();
  const forms = useMemo(() => (openApi.data ? commandTypeForms(openApi.data) : []), [openApi.data]);
  const [type, setType] = useState('');
  const [targetType, setTargetType] = useState('');
  const [targetUuid, setTargetUuid] = useState('');
  const [parameters, setParameters] = useState<FormValue>({});
  const [validFor, setValidFor] = useState('');
  const [sent, setSent] = useState<string[]>([]);
  const sessions = useList<ChargingSession>(
    '/api/v1/control/charging-sessions',
    'charging_sessions',
    {
      'filter[controller_uuid]': controllerUuid,
      'filter[status]': 'active',
      limit: 50,
    },
    { enabled: targetType === 'charging_session' && can('control:charging-sessions:list') },
  );
  const form = forms.find((entry) => entry.type === type);
  const send = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      session.request<{ command: Command }>('POST', COMMANDS, { body }),
    onSuccess: ({ command }) => setSent((previous) => [command.command_uuid, ...previous].slice(0, 5)),
  });
  const errors = send.error instanceof ApiError ? send.error.fieldErrors() : {};

  if (!can('control:commands:create')) return null;
  if (openApi.error) return <ErrorAlert error={openApi.error} title="The command types cannot be loaded" />;

  const chooseType = (value: string) => {
    const chosen = forms.find((entry) => entry.type === value);
    setType(value);
    setParameters({});
    send.reset();
    const first = chosen?.targetTypes[0] ?? '';
    setTargetType(first);
    setTargetUuid(first === 'controller' ? controllerUuid : '');
  };
  const chooseTargetType = (value: string) => {
    setTargetType(value);
    setTargetUuid(value === 'controller' ? controllerUuid : '');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form) return;
    const body: Record<string, unknown> = { type, target_type: targetType, target_uuid: targetUuid };
    const params =
      form.parameters && openApi.data ? toRequestValue(openApi.data, form.parameters, parameters) : undefined;
    if (params !== undefined || form.parametersRequired) body.parameters = params ?? {};
    if (validFor.trim() !== '') body.valid_for_seconds = Number(validFor);
    send.mutate(body);
  };

  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate aria-labelledby="send-command-title">
        <Stack>
          <Title order={2} size="h3" id="send-command-title">
            Send a command
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NativeSelect
              label="Command type"
              value={type}
              onChange={(event) => chooseType(event.currentTarget.value)}
              error={errors.type}
              data={[
                { value: '', label: openApi.isPending ? 'Loading…' : 'Choose…' },
                ...forms.map((entry) => ({ value: entry.type, label: label(entry.type) })),
              ]}
            />
            {form && (
              <NativeSelect
                label="Target"
                value={targetType}
                onChange={(event) => chooseTargetType(event.currentTarget.value)}
                error={errors.target_type}
                data={form.targetTypes.map((value) => ({
                  value,
                  label: value === 'connector' ? 'connector (plug)' : label(value),
                }))}
              />
            )}
            {form && targetType === 'connector' && (
              <NativeSelect
                label="Plug"
                value={targetUuid}
                onChange={(event) => setTargetUuid(event.currentTarget.value)}
                error={errors.target_uuid}
                data={[
                  { value: '', label: plugs.length ? 'Choose…' : 'This controller has no plugs' },
                  ...plugs.map((plug) => ({
                    value: plug.uuid,
                    label: `Connector ${plug.connector_id}${plug.name ? ` (${plug.name})` : ''}`,
                  })),
                ]}
              />
            )}
            {form && targetType === 'charging_session' && (
              <NativeSelect
                label="Charging session"
                value={targetUuid}
                onChange={(event) => setTargetUuid(event.currentTarget.value)}
                error={errors.target_uuid}
                data={[
                  {
                    value: '',
                    label: sessions.data?.items.length ? 'Choose…' : 'No active charging session',
                  },
                  ...(sessions.data?.items ?? []).map((entry) => ({
                    value: entry.uuid,
                    label: `Transaction ${entry.ocpp_transaction_id} (${formatDateTime(entry.started_at)})`,
                  })),
                ]}
              />
            )}
          </SimpleGrid>
          {form?.parameters && openApi.data && (
            <SchemaField
              document={openApi.data}
              schema={form.parameters}
              name="parameters"
              path="parameters"
              required={form.parametersRequired}
              value={parameters}
              onChange={setParameters}
              errors={errors}
            />
          )}
          {form?.validForSeconds && (
            <TextInput
              label="Valid for (seconds)"
              description={form.validForSeconds.description}
              inputMode="numeric"
              value={validFor}
              onChange={(event) => setValidFor(event.currentTarget.value)}
              error={errors.valid_for_seconds}
              maw={420}
            />
          )}
          <ErrorAlert error={send.error} title="The command was not sent" />
          <Group>
            <Button type="submit" disabled={!form} loading={send.isPending}>
              Send command
            </Button>
          </Group>
          {sent.map((uuid) => (
            <CommandProgress key={uuid} uuid={uuid} />
          ))}
        </Stack>
      </form>
    </Paper>
  );
}

export function commandsOf(targetUuid: string) {
  return { 'filter[target_uuid]': targetUuid, order_by: '-created_at', limit: 10 };
}
