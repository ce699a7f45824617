import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The API origin the dev server proxies to; the production build is served by apps/server itself. */
const apiTarget = process.env.DART_API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': apiTarget,
      '/version.json': apiTarget,
      '/builds': apiTarget,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 800,
  },
});
