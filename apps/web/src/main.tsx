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

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
