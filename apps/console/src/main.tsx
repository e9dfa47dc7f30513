import '@mantine/core/styles.css';
import './console.css';
import { createTheme, type CSSVariablesResolver, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { SessionProvider } from './api/context';
import { ApiError } from './api/errors';
import { ApiSession } from './api/session';

const session = new ApiSession();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (4xx) stays a refusal; only what may pass (no answer, 429, 5xx) is retried, twice, with backoff.
      retry: (failures, error) =>
        failures < 2 && !(error instanceof ApiError && error.status < 500 && error.status !== 429),
      refetchIntervalInBackground: false,
      refetchOnWindowFocus: true,
    },
    mutations: { retry: false },
  },
});

// Signing out forgets every answer of the previous account.
session.subscribe(() => {
  if (!session.snapshot()) queryClient.clear();
});

/**
 * Teal, with the two darkest shades darker than Mantine's own: white text on the filled colour (shade 8) and on its
 * hover (shade 9) keeps WCAG AA contrast.
 */
const theme = createTheme({
  colors: {
    brand: [
      '#e6fcf5',
      '#c3fae8',
      '#96f2d7',
      '#63e6be',
      '#38d9a9',
      '#20c997',
      '#12b886',
      '#0c8a66',
      '#087f5b',
      '#06694b',
    ],
  },
  primaryColor: 'brand',
  primaryShade: 8,
  defaultRadius: 'sm',
});
/** Secondary and error text dark enough for WCAG AA contrast (4.5:1) on white; Mantine's default gray is lighter. */
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={contrast}>
      <QueryClientProvider client={queryClient}>
        <SessionProvider session={session}>
          <App />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
