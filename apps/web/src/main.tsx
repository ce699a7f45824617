// oxlint-disable-next-line import/no-unassigned-import
import './zod-config';
// Stylesheets are side-effect imports by design: Vite bundles them into the page's CSS.
// oxlint-disable-next-line import/no-unassigned-import
import '@mantine/core/styles.css';
// oxlint-disable-next-line import/no-unassigned-import
import '@mantine/notifications/styles.css';
// oxlint-disable-next-line import/no-unassigned-import
import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/provider';
import { RouteError } from './lib/errors';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container, {
  // A RouteError is the app's own answer (the 401/402/404/410 page the route renders in its place),
  // not a fault: React would log every one caught by the router's boundary as a console error.
  onCaughtError: (error, info) => {
    if (error instanceof RouteError) return;
    console.error(error, info.componentStack);
  },
}).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
