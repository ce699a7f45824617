import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/**/*.test.ts', 'apps/**/*.test.ts', 'apps/**/*.test.tsx', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/**', '**/dist/**'],
    // Integration suites open databases: keep files in separate forks, two at a time (2 cores).
    pool: 'forks',
    maxWorkers: 2,
    // A test that builds the app pays for the cold PGlite start (WASM + every migration: 15–17 s alone on this
    // machine, more with the other worker busy); two builds in one test passed 30 s under load.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
