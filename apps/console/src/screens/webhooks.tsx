import { Button, Checkbox, Code, Group, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan, useSession } from '../api/context';
import { errorsByTopField } from '../api/errors';
import { useEnum, useItem, useList } from '../api/hooks';
import type { Webhook, WebhookDelivery, WebhookWithSecret } from '../api/types';
import { Link, navigate } from '../router';
import {
  choices,
  ConfirmDelete,
  type Dialog,
  editDeleteColumn,
  ErrorAlert,
  Fields,
  FormDialog,
  formatDateTime,
  ListScreen,
  PageHeader,
  SecretOnce,
  StatusBadge,
  useFilters,
} from '../ui';

/**
 * Webhook subscriptions (docs/webhooks.md): list, create, edit, delete, the signing secret shown once at creation and
 * rotation, a test ping, and each subscription's deliveries with their retries. A chunk of its own, loaded when one
 * of these screens opens. Each button shows only with its `webhooks:subscriptions:…` permission.
 */
const WEBHOOKS = '/api/v1/webhooks';
const AREA = 'webhooks:subscriptions';

/** A mutation of the webhooks API that refreshes every webhook query (the list, a detail, its deliveries). */
function useWebhookMutation<T>(run: (body: Record<string, unknown>) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ predicate: isWebhookQuery }),
  });
}

const isWebhookQuery = (query: { queryKey: readonly unknown[] }) =>
  typeof query.queryKey[0] === 'string' && query.queryKey[0].startsWith(WEBHOOKS);

const SECRET_WARNING =
  'This is the only time the signing secret is shown: the platform keeps it encrypted and never shows it again. ' +
  'Your receiver verifies the webhook-signature header with it (Standard Webhooks); a lost secret is rotated.';

function WebhookSecret({ secret, onClose }: { secret: string; onClose: () => void }) {
  return (
    <SecretOnce
      title="The webhook's signing secret"
      warning={SECRET_WARNING}
      secretLabel="Signing secret"
      secret={secret}
      testId="webhook-secret"
      onClose={onClose}
    />
  );
}

/** Event types as the API and the webhook bodies name them: what a receiver's code matches on. */
const eventTypesOf = (webhook: Webhook) => webhook.event_types.join(', ');

function WebhookStatus({ webhook }: { webhook: Webhook }) {
  return (
    <Group gap="xs" wrap="wrap">
      <StatusBadge status={webhook.enabled ? 'enabled' : 'disabled'} />
      {webhook.failing_since && (
        <Text size="xs" c="red.9">
          failing since {formatDateTime(webhook.failing_since)}
        </Text>
      )}
    </Group>
  );
}

// ----------------------------------------------------------------------------------------------------------- list

export function WebhookList() {
  const can = useCan();
  const [dialog, setDialog] = useState<Dialog<Webhook>>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const filters = useFilters({});
  const list = useList<Webhook>(WEBHOOKS, 'webhooks', { page: filters.page, limit: 20 });
  const close = () => setDialog(null);

  return (
    <>
      <ListScreen
        title="Webhooks"
        noun="webhooks"
        caption="Webhook subscriptions, newest first"
        actions={
          can(`${AREA}:create`) && <Button onClick={() => setDialog({ mode: 'create' })}>New webhook</Button>
        }
        list={list}
        onPage={filters.setPage}
        rowKey={(webhook) => webhook.uuid}
        minWidth={720}
        columns={[
          {
            header: 'URL',
            cell: (webhook) =>
              can(`${AREA}:read`) ? (
                <Link to={`/webhooks/${webhook.uuid}`} style={{ overflowWrap: 'anywhere' }}>
                  {webhook.url}
                </Link>
              ) : (
                <Text style={{ overflowWrap: 'anywhere' }}>{webhook.url}</Text>
              ),
          },
          { header: 'Events', cell: (webhook) => <Text size="sm">{eventTypesOf(webhook)}</Text> },
          { header: 'Status', cell: (webhook) => <WebhookStatus webhook={webhook} /> },
          { header: 'Created', cell: (webhook) => formatDateTime(webhook.created_at) },
          // No Actions column for a role that may neither change nor delete.
          ...(can(`${AREA}:update`) || can(`${AREA}:delete`)
            ? [editDeleteColumn(can, AREA, (webhook: Webhook) => webhook.url, setDialog)]
            : []),
        ]}
      />
      {dialog?.mode === 'create' && (
        <WebhookForm
          onClose={close}
          onCreated={(created) => {
            close();
            setSecret(created.secret);
          }}
        />
      )}
      {dialog?.mode === 'edit' && <WebhookForm webhook={dialog.item} onClose={close} />}
      {dialog?.mode === 'delete' && <WebhookDelete webhook={dialog.item} onClose={close} />}
      {secret && <WebhookSecret secret={secret} onClose={() => setSecret(null)} />}
    </>
  );
}

/** Creates a subscription (then `onCreated` with its secret) or changes one; the API's 422s beside the fields. */
function WebhookForm({
  webhook,
  onClose,
  onCreated,
}: {
  webhook?: Webhook;
  onClose: () => void;
  onCreated?: (created: WebhookWithSecret) => void;
}) {
  const session = useSession();
  const eventTypes = useEnum('CreateWebhookBody', 'event_types');
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [types, setTypes] = useState<string[]>(webhook?.event_types ?? []);
  const [locationUuid, setLocationUuid] = useState(webhook?.location_uuid ?? '');
  const [controllerUuid, setControllerUuid] = useState(webhook?.controller_uuid ?? '');
  const [enabled, setEnabled] = useState(webhook?.enabled ?? true);
  const save = useWebhookMutation((body) =>
    webhook
      ? session.request<WebhookWithSecret>('PATCH', `${WEBHOOKS}/${webhook.uuid}`, { body })
      : session.request<WebhookWithSecret>('POST', WEBHOOKS, { body }),
  );
  const errors = errorsByTopField(save.error);
  const filterFields: [string, string, string, (value: string) => void, string][] = [
    [
      'Only the controllers of location (UUID)',
      'Empty: every location',
      locationUuid,
      setLocationUuid,
      'location_uuid',
    ],
    [
      'Only controller (UUID)',
      'Empty: every controller',
      controllerUuid,
      setControllerUuid,
      'controller_uuid',
    ],
  ];
  const submit = () =>
    save.mutate(
      {
        url: url.trim(),
        event_types: types,
        location_uuid: locationUuid.trim() || null,
        controller_uuid: controllerUuid.trim() || null,
        enabled,
      },
      { onSuccess: (answer) => (webhook ? onClose() : onCreated?.(answer)) },
    );
  return (
    <FormDialog
      title={webhook ? 'Edit webhook' : 'New webhook'}
      opened
      onClose={onClose}
      onSubmit={submit}
      error={save.error}
      pending={save.isPending}
      submitLabel={webhook ? 'Save webhook' : 'Create webhook'}
    >
      <TextInput
        label="URL"
        description="Where the events are POSTed: https://… on a public address"
        required
        type="url"
        value={url}
        onChange={(event) => setUrl(event.currentTarget.value)}
        error={errors.url}
      />
      <Checkbox.Group label="Events" required value={types} onChange={setTypes} error={errors.event_types}>
        <Stack gap={6} mt={6}>
          {eventTypes.map((type) => (
            <Checkbox key={type} value={type} label={type} />
          ))}
        </Stack>
      </Checkbox.Group>
      {filterFields.map(([label, description, value, setValue, name]) => (
        <TextInput
          key={name}
          label={label}
          description={description}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          error={errors[name]}
        />
      ))}
      <Checkbox
        label="Enabled (events are sent)"
        checked={enabled}
        onChange={(event) => setEnabled(event.currentTarget.checked)}
        error={errors.enabled}
      />
    </FormDialog>
  );
}

function WebhookDelete({
  webhook,
  onClose,
  onDeleted = onClose,
}: {
  webhook: Webhook;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const session = useSession();
  const remove = useWebhookMutation(() => session.request('DELETE', `${WEBHOOKS}/${webhook.uuid}`));
  return (
    <ConfirmDelete
      opened
      onClose={onClose}
      what="webhook"
      consequence={`Events stop going to ${webhook.url} at once; the subscription and its deliveries are deleted for good.`}
      error={remove.error}
      pending={remove.isPending}
      onConfirm={() => remove.mutate({}, { onSuccess: onDeleted })}
    />
  );
}

// --------------------------------------------------------------------------------------------------------- detail

type DetailDialog = 'edit' | 'delete' | 'rotate' | null;

export function WebhookDetail({ uuid }: { uuid: string }) {
  const can = useCan();
  const session = useSession();
  const path = `${WEBHOOKS}/${uuid}`;
  const [dialog, setDialog] = useState<DetailDialog>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const webhook = useItem<Webhook>(path, 'webhook');
  const test = useWebhookMutation(() => session.request('POST', `${path}:test`));
  const rotate = useWebhookMutation(() =>
    session.request<WebhookWithSecret>('POST', `${path}:rotate-secret`),
  );

  if (webhook.isPending) return <Text>Loading…</Text>;
  if (!webhook.data) return <ErrorAlert error={webhook.error} title="The webhook cannot be shown" />;
  const item = webhook.data;
  const mayUpdate = can(`${AREA}:update`);
  const close = () => setDialog(null);

  return (
    <>
      <PageHeader title="Webhook">
        {mayUpdate && (
          <Button variant="default" loading={test.isPending} onClick={() => test.mutate({})}>
            Send test
          </Button>
        )}
        {mayUpdate && (
          <Button variant="default" onClick={() => setDialog('rotate')}>
            Rotate secret
          </Button>
        )}
        {mayUpdate && (
          <Button variant="default" onClick={() => setDialog('edit')}>
            Edit
          </Button>
        )}
        {can(`${AREA}:delete`) && (
          <Button color="red" variant="outline" onClick={() => setDialog('delete')}>
            Delete
          </Button>
        )}
      </PageHeader>
      <ErrorAlert error={test.error} title="The test was not sent" />
      {test.isSuccess && (
        <Text size="sm" role="status">
          A test ping is queued; it appears among the deliveries below.
        </Text>
      )}
      <Paper withBorder p="md">
        <Fields
          rows={[
            ['URL', item.url],
            ['Events', eventTypesOf(item)],
            ['Status', <WebhookStatus key="s" webhook={item} />],
            ['Disabled by the platform because', item.disabled_reason],
            ['Location filter', item.location_uuid],
            ['Controller filter', item.controller_uuid],
            ['Previous secret signs until', formatDateTime(item.previous_secret_expires_at)],
            ['Created', formatDateTime(item.created_at)],
            ['Updated', formatDateTime(item.updated_at)],
            ['UUID', item.uuid],
          ]}
        />
      </Paper>
      <Deliveries webhookUuid={uuid} />
      {dialog === 'edit' && <WebhookForm webhook={item} onClose={close} />}
      {dialog === 'delete' && (
        <WebhookDelete webhook={item} onClose={close} onDeleted={() => navigate('/webhooks')} />
      )}
      <ConfirmDelete
        opened={dialog === 'rotate'}
        onClose={close}
        what="secret"
        verb="Rotate"
        done="rotated"
        consequence="A new signing secret is made and shown once. The current one keeps signing beside it for a while (see Previous secret signs until), so your receiver can switch without losing an event."
        error={rotate.error}
        pending={rotate.isPending}
        onConfirm={() =>
          rotate.mutate(
            {},
            {
              onSuccess: (answer) => {
                close();
                setSecret(answer.secret);
                // The secret lives in the dialog's state only, not in the mutation's.
                rotate.reset();
              },
            },
          )
        }
      />
      {secret && <WebhookSecret secret={secret} onClose={() => setSecret(null)} />}
    </>
  );
}

/** A subscription's deliveries, newest first, watched live: status, attempts, the receiver's last answer, retry. */
function Deliveries({ webhookUuid }: { webhookUuid: string }) {
  const can = useCan();
  const session = useSession();
  const path = `${WEBHOOKS}/${webhookUuid}/deliveries`;
  const filters = useFilters({ status: '' });
  const statuses = useEnum('WebhookDeliveryBody', 'status');
  const list = useList<WebhookDelivery>(
    path,
    'deliveries',
    { page: filters.page, limit: 20, status: filters.values.status || undefined },
    { live: true },
  );
  const retry = useWebhookMutation((body) => session.request('POST', `${path}/${String(body.id)}:retry`));
  const mayRetry = can(`${AREA}:update`);

  return (
    <>
      <ListScreen
        title="Deliveries"
        headingLevel={2}
        noun="deliveries"
        caption="Deliveries, newest first"
        filters={
          <NativeSelect label="Delivery status" {...filters.field('status')} data={choices(statuses)} />
        }
        list={list}
        onPage={filters.setPage}
        rowKey={(delivery) => delivery.id}
        minWidth={860}
        columns={[
          { header: 'Created', cell: (delivery) => formatDateTime(delivery.created_at) },
          { header: 'Event', cell: (delivery) => delivery.event_type },
          {
            header: 'Status',
            cell: (delivery) => (
              <StatusBadge
                status={delivery.status}
                label={`Delivery ${delivery.event_type}: ${delivery.status}`}
              />
            ),
          },
          { header: 'Attempts', cell: (delivery) => delivery.attempts },
          {
            header: 'Last answer',
            cell: (delivery) =>
              delivery.last_error ? (
                <Code style={{ overflowWrap: 'anywhere' }}>{delivery.last_error}</Code>
              ) : (
                (delivery.last_response_code ?? '—')
              ),
          },
          {
            header: 'Last attempt',
            cell: (delivery) => formatDateTime(delivery.delivered_at ?? delivery.last_attempt_at),
          },
          { header: 'Next attempt', cell: (delivery) => formatDateTime(delivery.next_attempt_at) },
          ...(mayRetry
            ? [
                {
                  header: 'Actions',
                  cell: (delivery: WebhookDelivery) =>
                    delivery.status !== 'delivered' ? (
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Retry delivery ${delivery.webhook_id}`}
                        loading={retry.isPending && retry.variables?.id === delivery.id}
                        onClick={() => retry.mutate({ id: delivery.id })}
                      >
                        Retry
                      </Button>
                    ) : null,
                },
              ]
            : []),
        ]}
      />
      <ErrorAlert error={retry.error} title="The delivery was not retried" />
    </>
  );
}
