import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import { fileURLToPath } from 'node:url';

// Unit, integration and e2e tests run under Node 22 (npm puts node_modules/.bin first).
// `electron` is mocked: its binary cannot be downloaded here, and only src-main/electron/ imports it.
// The Vue plugin compiles .vue files for the renderer's component tests (test/unit/renderer/), which
// pick the happy-dom environment per file (`// @vitest-environment happy-dom`); the rest run in Node.
export default defineConfig({
  plugins: [vue()],
  resolve: {
    alias: { electron: fileURLToPath(new URL('./test/mocks/electron.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
