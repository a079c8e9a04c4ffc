#!/usr/bin/env node
// The `thicket` command. Runs the built CLI (out/main/cli.js) when it is at least as new as the
// sources; otherwise runs the TypeScript sources through tsx, so a fresh clone or an edited tree
// works without a build step.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'out/main/cli.js');
const source = join(root, 'src-main/cli/main.ts');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function useBuild() {
  if (!existsSync(built)) return false;
  if (!existsSync(source)) return true; // installed without sources
  const srcNewest = Math.max(newestMtime(join(root, 'src-main')), newestMtime(join(root, 'src-worker')));
  return statSync(built).mtimeMs >= srcNewest;
}

if (useBuild()) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(source).href);
}
