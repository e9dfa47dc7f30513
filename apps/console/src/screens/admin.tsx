import {
  Button,
  Checkbox,
  Code,
  NativeSelect,
  PasswordInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { adminFieldErrors, describeAdminError, formatPermissions, parsePermissions } from '../api/admin';
import { useCan, useSession } from '../api/context';
import { useEnum, useList } from '../api/hooks';
import type { ApiKey, AuditEvent, CreatedApiKey, Role, User } from '../api/types';
import {
  choices,
  ConfirmDelete,
  DANGER,
  type Dialog,
  editDeleteColumn,
  FormDialog,
  ListScreen,
  formatDateTime,
  SecretOnce,
  StatusBadge,
  useFilters,
} from '../ui';

/**
 * The admin screens (users, roles, API keys, the audit log): loaded only when one of them opens, so the first screen's
 * bundle stays small. Each button shows only when the token's scopes allow its `admin:…` permission.
 */
const USERS = '/api/v1/admin/users';
const ROLES = '/api/v1/admin/roles';
const API_KEYS = '/api/v1/admin/api-keys';
const AUDIT_EVENTS = '/api/v1/admin/audit-events';

const YES_NO = [
  { value: '', label: 'Any' },
  { value: 'true', label: 'yes' },
  { value: 'false', label: 'no' },
];

/** A mutation of the admin API that refreshes the list of `path` when it succeeds. */
function useAdminMutation<T>(path: string, run: (body: Record<string, unknown>) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [path] }),
  });
}

/** The names of the tenant's roles for a choice (empty when the role may not list roles: then a text field). */
function useRoleNames(): string[] {
  const can = useCan();
  const roles = useList<Role>(
    ROLES,
    'roles',
    { limit: 50, order_by: '+name' },
    { enabled: can('admin:roles:list') },
  );
  return roles.data?.items.map((role) => role.name) ?? [];
}

function RoleField({
  value,
  onChange,
  error,
  required,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  required?: boolean;
}) {
  const names = useRoleNames();
  if (names.length === 0)
    return (
      <TextInput
        label="Role"
        required={required}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={error}
      />
    );
  return (
    <NativeSelect
      label="Role"
      required={required}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
      data={choices(names.includes(value) || !value ? names : [value, ...names], 'Choose a role')}
    />
  );
}

// ---------------------------------------------------------------------------------------------------------- users

export function UserList() {
  const can = useCan();
  const [dialog, setDialog] = useState<Dialog<User>>(null);
  const filters = useFilters({ email: '', role: '', disabled: '' });
  const list = useList<User>(USERS, 'users', {
    page: filters.page,
    limit: 20,
    order_by: '+email',
    'filter[email]': filters.values.email.trim() || undefined,
    'filter[role]': filters.values.role.trim() || undefined,
    'filter[disabled]': filters.values.disabled || undefined,
  });
  const close = () => setDialog(null);

  return (
    <>
      <ListScreen
        title="Users"
        noun="users"
        actions={
          can('admin:users:create') && <Button onClick={() => setDialog({ mode: 'create' })}>New user</Button>
        }
        filters={
          <>
            <TextInput label="Search by e-mail" type="search" {...filters.field('email')} />
            <TextInput label="Role name" type="search" {...filters.field('role')} />
            <NativeSelect label="Disabled" {...filters.field('disabled')} data={YES_NO} />
          </>
        }
        list={list}
        onPage={filters.setPage}
        rowKey={(user) => user.uuid}
        columns={[
          { header: 'E-mail', cell: (user) => user.email },
          { header: 'Role', cell: (user) => user.role },
          {
            header: 'Status',
            cell: (user) => <StatusBadge status={user.disabled ? 'disabled' : 'enabled'} />,
          },
          { header: 'Created', cell: (user) => formatDateTime(user.created_at) },
          editDeleteColumn(can, 'admin:users', (user) => user.email, setDialog),
        ]}
      />
      {dialog?.mode === 'create' && <UserForm onClose={close} />}
      {dialog?.mode === 'edit' && <UserForm user={dialog.item} onClose={close} />}
      {dialog?.mode === 'delete' && <UserDelete user={dialog.item} onClose={close} />}
    </>
  );
}

/** Creates a user (e-mail, password, role) or edits one (role, enabled, a new password). */
function UserForm({ user, onClose }: { user?: User; onClose: () => void }) {
  const session = useSession();
  const [email, setEmail] = useState(user?.email ?? '');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState(user?.role ?? '');
  const [enabled, setEnabled] = useState(!(user?.disabled ?? false));
  const save = useAdminMutation(USERS, (body) =>
    user
      ? session.request('PATCH', `${USERS}/${user.uuid}`, { body })
      : session.request('POST', USERS, { body }),
  );
  const errors = adminFieldErrors(save.error);
  const submit = () => {
    const body: Record<string, unknown> = {};
    if (!user) Object.assign(body, { email: email.trim(), password, role });
    else {
      if (role !== user.role) body.role = role;
      if (enabled === user.disabled) body.disabled = !enabled;
      if (password !== '') body.password = password;
    }
    save.mutate(body, { onSuccess: onClose });
  };
  return (
    <FormDialog
      describe={describeAdminError}
      title={user ? `Edit ${user.email}` : 'New user'}
      opened
      onClose={onClose}
      onSubmit={submit}
      error={save.error}
      pending={save.isPending}
      submitLabel={user ? 'Save user' : 'Create user'}
    >
      {!user && (
        <TextInput
          label="E-mail"
          type="email"
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={errors.email}
        />
      )}
      <PasswordInput
        label={user ? 'New password' : 'Password'}
        description={user ? 'Leave empty to keep the password. 8 to 128 characters.' : '8 to 128 characters.'}
        required={!user}
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.currentTarget.value)}
        error={errors.password}
      />
      <RoleField value={role} onChange={setRole} error={errors.role} required />
      {user && (
        <Checkbox
          label="Enabled (may sign in)"
          checked={enabled}
          onChange={(event) => setEnabled(event.currentTarget.checked)}
          error={errors.disabled}
        />
      )}
    </FormDialog>
  );
}

function UserDelete({ user, onClose }: { user: User; onClose: () => void }) {
  const session = useSession();
  const remove = useAdminMutation(USERS, () => session.request('DELETE', `${USERS}/${user.uuid}`));
  return (
    <ConfirmDelete
      opened
      onClose={onClose}
      what="user"
      consequence={`${user.email} is deleted for good and signed out at once.`}
      error={remove.error}
      pending={remove.isPending}
      onConfirm={() => remove.mutate({}, { onSuccess: onClose })}
      describe={describeAdminError}
    />
  );
}

// ---------------------------------------------------------------------------------------------------------- roles

export function RoleList() {
  const can = useCan();
  const [dialog, setDialog] = useState<Dialog<Role>>(null);
  const filters = useFilters({ name: '' });
  const list = useList<Role>(ROLES, 'roles', {
    page: filters.page,
    limit: 20,
    order_by: '+name',
    'filter[name]': filters.values.name.trim() || undefined,
  });
  const close = () => setDialog(null);

  return (
    <>
      <ListScreen
        title="Roles"
        noun="roles"
        actions={
          can('admin:roles:create') && <Button onClick={() => setDialog({ mode: 'create' })}>New role</Button>
        }
        filters={<TextInput label="Search by name" type="search" {...filters.field('name')} />}
        list={list}
        onPage={filters.setPage}
        rowKey={(role) => role.uuid}
        columns={[
          { header: 'Name', cell: (role) => role.name },
          {
            header: 'Permissions',
            cell: (role) => (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {role.permissions.join(', ')}
              </Text>
            ),
          },
          { header: 'Updated', cell: (role) => formatDateTime(role.updated_at) },
          editDeleteColumn(can, 'admin:roles', (role) => role.name, setDialog),
        ]}
      />
      {dialog?.mode === 'create' && <RoleForm onClose={close} />}
      {dialog?.mode === 'edit' && <RoleForm role={dialog.item} onClose={close} />}
      {dialog?.mode === 'delete' && <RoleDelete role={dialog.item} onClose={close} />}
    </>
  );
}

function RoleForm({ role, onClose }: { role?: Role; onClose: () => void }) {
  const session = useSession();
  const [name, setName] = useState(role?.name ?? '');
  const [permissions, setPermissions] = useState(formatPermissions(role?.permissions ?? []));
  const save = useAdminMutation(ROLES, (body) =>
    role
      ? session.request('PATCH', `${ROLES}/${role.uuid}`, { body })
      : session.request('POST', ROLES, { body }),
  );
  const errors = adminFieldErrors(save.error);
  const submit = () =>
    save.mutate({ name: name.trim(), permissions: parsePermissions(permissions) }, { onSuccess: onClose });
  return (
    <FormDialog
      describe={describeAdminError}
      title={role ? `Edit role ${role.name}` : 'New role'}
      opened
      onClose={onClose}
      onSubmit={submit}
      error={save.error}
      pending={save.isPending}
      submitLabel={role ? 'Save role' : 'Create role'}
    >
      <TextInput
        label="Name"
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={errors.name}
      />
      <Textarea
        label="Permissions"
        description="One a line, e.g. asset:locations:list; a shorter grant such as asset covers all below it, * covers everything. You can grant only what you hold."
        autosize
        minRows={4}
        value={permissions}
        onChange={(event) => setPermissions(event.currentTarget.value)}
        error={errors.permissions}
      />
    </FormDialog>
  );
}

function RoleDelete({ role, onClose }: { role: Role; onClose: () => void }) {
  const session = useSession();
  const remove = useAdminMutation(ROLES, () => session.request('DELETE', `${ROLES}/${role.uuid}`));
  return (
    <ConfirmDelete
      opened
      onClose={onClose}
      what="role"
      consequence={`The role ${role.name} is deleted for good. A role that users or live API keys have cannot be deleted.`}
      error={remove.error}
      pending={remove.isPending}
      onConfirm={() => remove.mutate({}, { onSuccess: onClose })}
      describe={describeAdminError}
    />
  );
}

// ------------------------------------------------------------------------------------------------------- API keys

export function ApiKeyList() {
  const can = useCan();
  const [dialog, setDialog] = useState<Dialog<ApiKey>>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const filters = useFilters({ name: '', role: '', revoked: 'false' });
  const list = useList<ApiKey>(API_KEYS, 'api_keys', {
    page: filters.page,
    limit: 20,
    order_by: '-created_at',
    'filter[name]': filters.values.name.trim() || undefined,
    'filter[role]': filters.values.role.trim() || undefined,
    'filter[revoked]': filters.values.revoked || undefined,
  });
  const close = () => setDialog(null);

  return (
    <>
      <ListScreen
        title="API keys"
        noun="API keys"
        actions={
          can('admin:api-keys:create') && (
            <Button onClick={() => setDialog({ mode: 'create' })}>New API key</Button>
          )
        }
        filters={
          <>
            <TextInput label="Search by name" type="search" {...filters.field('name')} />
            <TextInput label="Role name" type="search" {...filters.field('role')} />
            <NativeSelect label="Revoked" {...filters.field('revoked')} data={YES_NO} />
          </>
        }
        list={list}
        onPage={filters.setPage}
        rowKey={(key) => key.uuid}
        columns={[
          { header: 'Name', cell: (key) => key.name || '—' },
          { header: 'Public key', cell: (key) => <Code>{key.public_key}</Code> },
          { header: 'Role', cell: (key) => key.role },
          { header: 'Status', cell: (key) => <StatusBadge status={key.revoked ? 'revoked' : 'active'} /> },
          { header: 'Created', cell: (key) => formatDateTime(key.created_at) },
          {
            header: 'Actions',
            cell: (key) =>
              can('admin:api-keys:delete') && !key.revoked ? (
                <Button
                  size="xs"
                  color={DANGER}
                  variant="outline"
                  aria-label={`Revoke ${key.name || key.public_key}`}
                  onClick={() => setDialog({ mode: 'delete', item: key })}
                >
                  Revoke
                </Button>
              ) : null,
          },
        ]}
      />
      {dialog?.mode === 'create' && (
        <ApiKeyForm
          onClose={close}
          onCreated={(key) => {
            close();
            setCreated(key);
          }}
        />
      )}
      {dialog?.mode === 'delete' && <ApiKeyRevoke apiKey={dialog.item} onClose={close} />}
      {created && <ApiKeySecret apiKey={created} onClose={() => setCreated(null)} />}
    </>
  );
}

function ApiKeyForm({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const session = useSession();
  const [name, setName] = useState('');
  const [role, setRole] = useState('');
  const create = useAdminMutation(API_KEYS, (body) =>
    session.request<{ api_key: CreatedApiKey }>('POST', API_KEYS, { body }),
  );
  const errors = adminFieldErrors(create.error);
  const submit = () =>
    create.mutate(name.trim() ? { name: name.trim(), role } : { role }, {
      onSuccess: (answer) => onCreated(answer.api_key),
    });
  return (
    <FormDialog
      describe={describeAdminError}
      title="New API key"
      opened
      onClose={onClose}
      onSubmit={submit}
      error={create.error}
      pending={create.isPending}
      submitLabel="Create API key"
    >
      <TextInput
        label="Name"
        description="What the key is for, e.g. billing export"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={errors.name}
      />
      <RoleField value={role} onChange={setRole} error={errors.role} required />
    </FormDialog>
  );
}

/** The private key of a new API key, shown this once. */
function ApiKeySecret({ apiKey, onClose }: { apiKey: CreatedApiKey; onClose: () => void }) {
  return (
    <SecretOnce
      title="The new API key's secret"
      warning={
        'This is the only time the private key is shown. The platform keeps only its hash: after closing this ' +
        'dialog nobody can show it again; a lost key is revoked and replaced.'
      }
      secretLabel="Private key"
      secret={apiKey.private_key}
      testId="api-key-secret"
      onClose={onClose}
    >
      <Text size="sm">
        Public key (the user name at the token endpoint, context <Code>apikey</Code>):
      </Text>
      <Code block aria-label="Public key">
        {apiKey.public_key}
      </Code>
      <Text size="sm">The private key is the password.</Text>
    </SecretOnce>
  );
}

function ApiKeyRevoke({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const session = useSession();
  const revoke = useAdminMutation(API_KEYS, () => session.request('DELETE', `${API_KEYS}/${apiKey.uuid}`));
  return (
    <ConfirmDelete
      opened
      onClose={onClose}
      what="API key"
      verb="Revoke"
      done="revoked"
      consequence={`${apiKey.name || apiKey.public_key} stops working at once, for good; it stays listed as revoked.`}
      error={revoke.error}
      pending={revoke.isPending}
      onConfirm={() => revoke.mutate({}, { onSuccess: onClose })}
      describe={describeAdminError}
    />
  );
}

// ---------------------------------------------------------------------------------------------------- audit events

export function AuditEventList() {
  const filters = useFilters({ actor_type: '', kind: '', actor_uuid: '', target_uuid: '', from: '', to: '' });
  const values = filters.values;
  // The allowed values come from the API's OpenAPI document, as on the other screens.
  const actorTypes = useEnum('AuditActorBody', 'type');
  const kinds = useEnum('AuditEventBody', 'kind');
  const list = useList<AuditEvent>(AUDIT_EVENTS, 'audit_events', {
    page: filters.page,
    limit: 20,
    'filter[actor_type]': values.actor_type || undefined,
    'filter[kind]': values.kind || undefined,
    'filter[actor_uuid]': values.actor_uuid.trim() || undefined,
    'filter[target_uuid]': values.target_uuid.trim() || undefined,
    'filter[from]': values.from.trim() || undefined,
    'filter[to]': values.to.trim() || undefined,
  });

  return (
    <ListScreen
      title="Audit events"
      noun="audit events"
      caption="Audit events, newest first"
      filters={
        <>
          <NativeSelect label="Actor type" {...filters.field('actor_type')} data={choices(actorTypes)} />
          <NativeSelect label="Kind" {...filters.field('kind')} data={choices(kinds)} />
          <TextInput label="Actor UUID" {...filters.field('actor_uuid')} />
          <TextInput label="Target UUID" {...filters.field('target_uuid')} />
          <TextInput label="From" description="e.g. 2026-01-31T12:00:00Z" {...filters.field('from')} />
          <TextInput
            label="To (exclusive)"
            description="e.g. 2026-02-01T00:00:00Z"
            {...filters.field('to')}
          />
        </>
      }
      list={list}
      onPage={filters.setPage}
      rowKey={(event) => event.uuid}
      minWidth={760}
      columns={[
        { header: 'When', cell: (event) => formatDateTime(event.occurred_at) },
        { header: 'Kind', cell: (event) => event.kind },
        { header: 'Actor', cell: (event) => `${event.actor.name} (${event.actor.type.replace('_', ' ')})` },
        { header: 'Target', cell: (event) => <Code>{`${event.target.type} ${event.target.uuid}`}</Code> },
        { header: 'Changed', cell: (event) => event.changed_fields.join(', ') || '—' },
        { header: 'From address', cell: (event) => event.source_address ?? '—' },
      ]}
    />
  );
}
