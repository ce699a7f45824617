import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useState } from 'react';
import { COLOR_SCHEME_STORAGE_KEY, theme } from '../config/theme';
import { LiveProvider } from '../lib/live';
import { createQueryClient } from '../lib/query-client';
import { createAppRouter } from './router';
import { ToastAreas } from './toast-areas';

const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(queryClient));
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
      <QueryClientProvider client={queryClient}>
        <LiveProvider>
          <ToastAreas />
          <RouterProvider router={router} />
        </LiveProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
