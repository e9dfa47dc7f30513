import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Pagination,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { type ChangeEvent, type FormEvent, type ReactNode, useState } from 'react';
import { describeError } from './api/errors';
import type { Pagination as PaginationBody } from './api/types';

/** An error of the API (or of the way to it) in words, announced to screen readers. */
export function ErrorAlert({
  error,
  title = 'That did not work',
  describe = describeError,
}: {
  error: unknown;
  title?: string;
  /** The words for the error; screens with refusals of their own (the admin API's) pass theirs. */
  describe?: (error: unknown) => string;
}) {
  if (!error) return null;
  return (
    <Alert color="red" title={title} role="alert" variant="outline">
      {describe(error)}
    </Alert>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Group justify="space-between" align="center" wrap="wrap" gap="sm">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children && <Group gap="sm">{children}</Group>}
    </Group>
  );
}

export function Paging({
  pagination,
  onPage,
  label,
}: {
  pagination: PaginationBody | undefined;
  onPage: (page: number) => void;
  label: string;
}) {
  if (!pagination) return null;
  const names = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' };
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm" c="dimmed">
        Page {pagination.page} of {pagination.total_pages}
      </Text>
      <nav aria-label={label}>
        <Pagination
          total={pagination.total_pages}
          value={pagination.page}
          onChange={onPage}
          withEdges
          getControlProps={(control) => ({ 'aria-label': names[control] })}
          getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
        />
      </nav>
    </Group>
  );
}

const STATUS_COLORS: Record<string, string> = {
  online: 'green',
  offline: 'gray',
  accepted: 'green',
  pending: 'blue',
  sent: 'cyan',
  rejected: 'orange',
  timeout: 'orange',
  failed: 'red',
  active: 'green',
  completed: 'gray',
  available: 'green',
  charging: 'blue',
  occupied: 'blue',
  faulted: 'red',
  unavailable: 'gray',
  enabled: 'green',
  disabled: 'gray',
  revoked: 'red',
  delivered: 'green',
  connected: 'green',
  disconnected: 'gray',
  booted: 'blue',
  security_event: 'orange',
  authorization_refused: 'orange',
};

export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <Badge color={STATUS_COLORS[status.toLowerCase()] ?? 'gray'} variant="dot" aria-label={label}>
      {status.replace(/_/g, ' ')}
    </Badge>
  );
}

/** Label and value pairs as a description list, two columns on wide screens. */
export function Fields({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="xs" m={0}>
      {rows.map(([label, value]) => (
        <Stack key={label} gap={0}>
          <Text component="dt" size="xs" c="dimmed" fw={600}>
            {label}
          </Text>
          <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
            {value === null || value === undefined || value === '' ? '—' : value}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}

/** How fresh a polled screen is, or that it cannot reach the platform and keeps trying. */
export function LiveNote({ updatedAt, error }: { updatedAt: number; error: unknown }) {
  return (
    <Text size="xs" c={error ? 'red.9' : 'dimmed'} aria-live="polite">
      {error
        ? `Live updates paused: ${describeError(error)} Retrying with growing pauses.`
        : updatedAt
          ? `Live: updated ${new Date(updatedAt).toLocaleTimeString()}`
          : 'Loading…'}
    </Text>
  );
}

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

export function formatEnergy(wh: number | null | undefined): string {
  if (wh === null || wh === undefined) return '—';
  return wh >= 1000 ? `${(wh / 1000).toFixed(2)} kWh` : `${wh} Wh`;
}

export function formatDuration(from: string | null, to: string | null): string {
  if (!from) return '—';
  const ms = (to ? new Date(to).getTime() : Date.now()) - new Date(from).getTime();
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const minutes = Math.floor(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min ${Math.floor(ms / 1000) % 60} s`;
}

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
}

/** A table of rows with a caption for screen readers, scrolling sideways on narrow screens; `empty` when none. */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  minWidth = 520,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  empty: string;
  minWidth?: number;
}) {
  return (
    <>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table striped highlightOnHover aria-label={caption}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.header}>{column.header}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows?.map((row) => (
              <Table.Tr key={rowKey(row)}>
                {columns.map((column) => (
                  <Table.Td key={column.header}>{column.cell(row)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows?.length === 0 && <Text>{empty}</Text>}
    </>
  );
}

/** What a list screen shows of its query (`useList`): the page's rows, its pagination, the failure if any. */
export interface ListResult<T> {
  data?: { items: T[]; pagination?: PaginationBody };
  error: unknown;
}

/**
 * A list screen: its title with the actions the role may use, the filters, the failure in words, the table and the
 * pages. `noun` names the rows in the sentences ("The users cannot be shown", "No users match.", "Pages of users").
 */
export function ListScreen<T>({
  title,
  noun,
  actions,
  filters,
  list,
  onPage,
  caption = title,
  headingLevel = 1,
  ...table
}: {
  title: string;
  noun: string;
  actions?: ReactNode;
  filters?: ReactNode;
  list: ListResult<T>;
  onPage: (page: number) => void;
  caption?: string;
  /** 2 for a list inside another screen (a controller's events). */
  headingLevel?: 1 | 2;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  minWidth?: number;
}) {
  return (
    <>
      {headingLevel === 1 ? (
        <PageHeader title={title}>{actions}</PageHeader>
      ) : (
        <Title order={2} size="h3">
          {title}
        </Title>
      )}
      {filters && (
        <Group align="end" wrap="wrap">
          {filters}
        </Group>
      )}
      <ErrorAlert error={list.error} title={`The ${noun} cannot be shown`} />
      <DataTable caption={caption} rows={list.data?.items} empty={`No ${noun} match.`} {...table} />
      <Paging pagination={list.data?.pagination} onPage={onPage} label={`Pages of ${noun}`} />
    </>
  );
}

/**
 * The filters and page of a list screen: changing a filter goes back to page 1. `field(name)` gives a control its
 * value and change handler.
 */
export function useFilters<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState(initial);
  const [page, setPage] = useState(1);
  const field = (name: keyof T & string) => ({
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      setValues({ ...values, [name]: event.currentTarget.value });
      setPage(1);
    },
  });
  return { values, page, setPage, field };
}

/** `[{value: '', label: 'Any'}, ...values]` for a filter's choice. */
export function choices(values: readonly string[], none = 'Any') {
  return [{ value: '', label: none }, ...values.map((value) => ({ value, label: value.replace(/_/g, ' ') }))];
}

/** A dialog's close button, named for screen readers (Mantine's has only an icon). */
export const CLOSE = { 'aria-label': 'Close' };

/** "Delete this …?" with the API's refusal in words (a location with controllers, a missing permission). */
export function ConfirmDelete({
  opened,
  onClose,
  what,
  consequence,
  error,
  pending,
  onConfirm,
  verb = 'Delete',
  done = 'deleted',
  describe,
}: {
  opened: boolean;
  onClose: () => void;
  what: string;
  consequence: string;
  error: unknown;
  pending: boolean;
  onConfirm: () => void;
  /** Another action that ends an object (`Revoke`, with `done` `revoked`). */
  verb?: string;
  done?: string;
  describe?: (error: unknown) => string;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={`${verb} this ${what}?`} closeButtonProps={CLOSE}>
      <Stack>
        <Text>{consequence}</Text>
        <ErrorAlert error={error} title={`The ${what} was not ${done}`} describe={describe} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            {verb} {what}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Small outline buttons on striped rows need the darker red to keep their text's contrast (axe-core). */
export const DANGER = 'red.9';

/** A form in a dialog: the refusal in words above the fields, the 422s beside them. */
export function FormDialog({
  title,
  opened,
  onClose,
  onSubmit,
  error,
  pending,
  submitLabel,
  children,
  describe,
}: {
  title: string;
  opened: boolean;
  onClose: () => void;
  onSubmit: () => void;
  error: unknown;
  pending: boolean;
  submitLabel: string;
  children: ReactNode;
  /** The words for a refusal; screens with refusals of their own (the admin API's) pass theirs. */
  describe?: (error: unknown) => string;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} closeButtonProps={CLOSE}>
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack>
          <ErrorAlert error={error} title="Not saved" describe={describe} />
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export type Dialog<T> = { mode: 'create' } | { mode: 'edit'; item: T } | { mode: 'delete'; item: T } | null;

/** Edit and Delete for a row, each only with its permission (`<area>:update`, `<area>:delete`). */
export function editDeleteColumn<T>(
  can: (permission: string) => boolean,
  area: string,
  nameOf: (item: T) => string,
  open: (dialog: Dialog<T>) => void,
): Column<T> {
  return {
    header: 'Actions',
    cell: (item) => (
      <Group gap="xs" wrap="nowrap">
        {can(`${area}:update`) && (
          <Button
            size="xs"
            variant="default"
            aria-label={`Edit ${nameOf(item)}`}
            onClick={() => open({ mode: 'edit', item })}
          >
            Edit
          </Button>
        )}
        {can(`${area}:delete`) && (
          <Button
            size="xs"
            color={DANGER}
            variant="outline"
            aria-label={`Delete ${nameOf(item)}`}
            onClick={() => open({ mode: 'delete', item })}
          >
            Delete
          </Button>
        )}
      </Group>
    ),
  };
}

/**
 * A secret shown this once (an API key's private key, a webhook's signing secret): it lives in this dialog's state and
 * nowhere else (never in storage, the query cache or the URL), so closing the dialog forgets it.
 */
export function SecretOnce({
  title,
  warning,
  secretLabel,
  secret,
  testId,
  onClose,
  children,
}: {
  title: string;
  warning: string;
  /** The secret's name: "Private key", "Signing secret". */
  secretLabel: string;
  secret: string;
  testId: string;
  onClose: () => void;
  /** What else the dialog shows above the secret (an API key's public key). */
  children?: ReactNode;
}) {
  return (
    <Modal opened onClose={onClose} title={title} closeOnClickOutside={false} closeButtonProps={CLOSE}>
      <Stack>
        <Alert color="red" variant="outline" title={`Copy the ${secretLabel.toLowerCase()} now`}>
          {warning}
        </Alert>
        {children}
        <Text size="sm">{secretLabel}:</Text>
        <Code block aria-label={secretLabel} data-testid={testId}>
          {secret}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button variant="outline" onClick={copy}>
                {copied ? 'Copied' : `Copy ${secretLabel.toLowerCase()}`}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>I have copied it, close</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
