import {
  Alert,
  Button,
  Center,
  Paper,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useSession } from '../api/context';
import { ApiError } from '../api/errors';

/** The token endpoint's refusals, in the words an operator needs. */
function signInProblem(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  switch (error.status) {
    case 400:
      return 'Some fields are not valid; see the messages beside them.';
    case 401:
      return 'The tenant, the user name or the password is wrong, or the account is disabled.';
    case 429:
      return `Too many sign-in attempts. Wait ${error.retryAfterSeconds ?? 'a few'} seconds and try again.`;
    default:
      return error.message;
  }
}

export function SignIn() {
  const session = useSession();
  const [kind, setKind] = useState<'user' | 'apikey'>('user');
  const [tenant, setTenant] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const fieldErrors = error instanceof ApiError ? error.fieldErrors() : {};

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await session.signIn({
        tenant: tenant.trim(),
        username: username.trim(),
        password,
        apiKey: kind === 'apikey',
      });
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="sign-in-title">
          <Stack>
            <Title order={1} size="h2" id="sign-in-title">
              Sign in to the console
            </Title>
            {session.endedReason && !error && (
              <Alert color="yellow" role="status" variant="outline">
                {session.endedReason}
              </Alert>
            )}
            {error !== null && (
              <Alert color="red" role="alert" title="Sign-in failed" variant="outline">
                {signInProblem(error)}
              </Alert>
            )}
            <div>
              <Text component="span" size="sm" fw={500} id="sign-in-kind">
                Sign in with
              </Text>
              <SegmentedControl
                fullWidth
                aria-labelledby="sign-in-kind"
                value={kind}
                onChange={setKind}
                data={[
                  { value: 'user', label: 'E-mail and password' },
                  { value: 'apikey', label: 'API key' },
                ]}
              />
            </div>
            <TextInput
              label="Tenant"
              description="Your organisation's short name"
              required
              autoComplete="organization"
              value={tenant}
              onChange={(event) => setTenant(event.currentTarget.value)}
              error={fieldErrors.tenant}
            />
            <TextInput
              label={kind === 'user' ? 'E-mail' : 'Public key'}
              required
              type={kind === 'user' ? 'email' : 'text'}
              autoComplete={kind === 'user' ? 'username' : 'off'}
              value={username}
              onChange={(event) => setUsername(event.currentTarget.value)}
              error={fieldErrors.username}
            />
            <PasswordInput
              label={kind === 'user' ? 'Password' : 'Private key'}
              required
              autoComplete={kind === 'user' ? 'current-password' : 'off'}
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={fieldErrors.password}
            />
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
