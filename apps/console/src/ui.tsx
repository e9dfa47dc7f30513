import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Pagination,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { type ChangeEvent, type ReactNode, useState } from 'react';
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
