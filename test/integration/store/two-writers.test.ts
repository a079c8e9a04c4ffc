import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openProject } from '../../../src-main/store';
import { useTempDir } from './helpers';

const WRITER = fileURLToPath(new URL('../../fixtures/store/import-writer.ts', import.meta.url));

interface WriterResult {
  done: number;
  errors: string[];
}

function writer(file: string, tag: string, imports: number, chunks: number): Promise<WriterResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file, tag, String(imports), String(chunks)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`writer ${tag} exited ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as WriterResult);
    });
  });
}

// docs/design.md, "Robustness": write transactions begin IMMEDIATE, so a second process's
// writes queue for the lock instead of failing with "database is locked".
describe('two processes importing into one project at the same time', () => {
  const tmp = useTempDir();

  it('keeps every import of both, round after round', async () => {
    const file = tmp.file('shared.thicket');
    openProject(file, { create: true }).close();
    const rounds = 3, imports = 4, chunks = 40;
    for (let round = 0; round < rounds; round++) {
      const results = await Promise.all([writer(file, `a${round}`, imports, chunks), writer(file, `b${round}`, imports, chunks)]);
      for (const r of results) {
        expect(r.errors).toEqual([]);
        expect(r.done).toBe(imports);
      }
    }
    const store = openProject(file, { create: false });
    try {
      const logs = store.logs.list();
      expect(logs).toHaveLength(2 * rounds * imports);
      for (const log of logs) {
        expect(log.packets).toBe(chunks * 16);
        expect(store.logs.chunkCount(log.id)).toBe(chunks);
      }
    } finally {
      store.close();
    }
  });
});
