import { defineConfig } from 'electron-vite';
import vue from '@vitejs/plugin-vue';
import { resolve } from 'node:path';

// One build for every entry:
//  main:     out/main/index.js (Electron main), cli.js (thicket CLI), web.js (headless host for
//            browser mode), worker.js (piscina task entry: all heavy compute)
//  preload:  out/preload/index.cjs (sandboxed preloads must be CommonJS)
//  renderer: out/renderer/ (Vue app; served by Electron or by the web host)
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/electron/main.ts'),
          cli: resolve(__dirname, 'src-main/cli/main.ts'),
          web: resolve(__dirname, 'src-main/host/web-main.ts'),
          worker: resolve(__dirname, 'src-worker/tasks/entry.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-main/electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [vue()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      chunkSizeWarningLimit: 4000,
      rollupOptions: { input: resolve(__dirname, 'src-renderer/index.html') },
    },
  },
});
