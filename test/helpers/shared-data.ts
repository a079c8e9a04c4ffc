import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/** ../shared/data beside the repository (CI clones with shared/ next to it). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const SHARED_DATA = resolve(REPO_ROOT, '../shared/data');
export const HAS_SHARED_DATA = existsSync(SHARED_DATA);
export const dataFile = (rel: string) => resolve(SHARED_DATA, rel);

if (!HAS_SHARED_DATA) console.warn(`[thicket tests] ${SHARED_DATA} is absent: tests on real recordings are skipped`);
