/**
 * The import table of the layers (docs/design.md, "Layers") is enforced by eslint.config.js; these cases prove each
 * row both forbids what it must and allows what it must (a rule that never fires would pass lint).
 */
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/shared-data';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function violations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

const cases: [file: string, code: string, allowed: boolean][] = [
  ['src-worker/geometry/x.ts', "import { a } from '../../src-main/api/contract';", false],
  ['src-worker/geometry/x.ts', "import { a } from '../../src-renderer/stores/app';", false],
  ['src-worker/geometry/x.ts', "import fs from 'node:fs';", false],
  ['src-worker/geometry/x.ts', "import fs from 'fs';", false],
  ['src-worker/geometry/x.ts', "import { Engine } from '@babylonjs/core/Engines/engine';", false],
  ['src-worker/geometry/x.ts', "import { a } from '../formats/packets';", true],
  ['src-worker/tasks/x.ts', "import { readFile } from 'node:fs/promises';", true],
  ['src-worker/tasks/x.ts', "import { a } from '../../src-main/services/app-services';", false],
  // Tasks open users' ROS 2 bags (.db3, SQLite) read-only; the rest of src-worker stays pure compute.
  ['src-worker/tasks/x.ts', "import Database from 'better-sqlite3';", true],
  ['src-worker/formats/x.ts', "import Database from 'better-sqlite3';", false],
  ['src-main/services/x.ts', "import { app } from 'electron';", false],
  ['src-main/services/x.ts', "import Database from 'better-sqlite3';", false],
  ['src-main/services/x.ts', "import { a } from '../../src-renderer/api';", false],
  // The host orchestrates: of the worker layer only the task entry points' types.
  ['src-main/services/x.ts', "import { a } from '../../src-worker/formats/packed-rays';", false],
  ['src-main/services/x.ts', "import type { ImportLogInput } from '../../src-worker/tasks/import-log';", true],
  ['src-main/services/x.ts', "import { type ImportLogInput } from '../../src-worker/tasks/import-log';", true],
  ['src-main/services/x.ts', "import { importLog } from '../../src-worker/tasks/import-log';", false],
  ['src-main/electron/x.ts', "import { toShared } from '../../src-worker/tasks/shared-memory';", false],
  ['src-main/electron/x.ts', "import { a } from '../../src-worker/sensors/scan-pattern';", false],
  ['src-main/store/x.ts', "import { a } from '../../src-worker/formats/packed-rays';", false],
  ['src-main/electron/x.ts', "import { app } from 'electron';", true],
  ['src-main/store/x.ts', "import Database from 'better-sqlite3';", true],
  ['src-main/api/x.ts', "import { a } from '../store';", false],
  ['src-main/api/x.ts', "import os from 'node:os';", false],
  ['src-main/api/x.ts', "import { z } from 'zod';", true],
  ['src-renderer/views/x.ts', "import type { Method } from '../../src-main/api/contract';", true],
  ['src-renderer/views/x.ts', "import { encodeFrame } from '../../src-main/api/wire';", true],
  ['src-renderer/views/x.ts', "import type { ProjectStore } from '../../src-main/store';", false],
  ['src-renderer/views/x.ts', "import { a } from '../../src-worker/formats/packets';", false],
  ['src-renderer/views/x.ts', "import { ipcRenderer } from 'electron';", false],
  ['src-renderer/views/x.ts', "import path from 'path';", false],
  ['src-renderer/views/x.ts', "import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';", true],
  // The shared vocabulary: every layer may import it; it imports nothing of theirs.
  ['src-renderer/views/x.ts', "import { SITE_CLASS_NAMES } from '../../src-common/classes';", true],
  ['src-main/api/x.ts', "import { LOG_FORMATS } from '../../src-common/formats';", true],
  ['src-main/services/x.ts', "import { LOG_FORMATS } from '../../src-common/formats';", true],
  ['src-worker/formats/x.ts', "import { LOG_FORMATS } from '../../src-common/formats';", true],
  ['src-common/x.ts', "import { a } from '../src-worker/formats/packets';", false],
  ['src-common/x.ts', "import { a } from '../src-main/api/contract';", false],
  ['src-common/x.ts', "import { a } from '../src-renderer/stores/app';", false],
  ['src-common/x.ts', "import fs from 'node:fs';", false],
  ['src-common/x.ts', "import { ref } from 'vue';", false],
  ['src-common/x.ts', "import { DEG } from './units';", true],
];

describe('layering lint rule (the import table of docs/design.md, "Layers")', () => {
  it.each(cases)('%s: %s → allowed=%s', async (file, code, allowed) => {
    const found = await violations(file, `${code}\nexport const _x = 1;\n`);
    if (allowed) expect(found).toEqual([]);
    else expect(found.length).toBeGreaterThan(0);
  });
});
