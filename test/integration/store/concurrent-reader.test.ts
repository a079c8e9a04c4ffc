import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openProject } from '../../../src-main/store';
import { makeChunk, useTempDir } from './helpers';

const READER = fileURLToPath(new URL('../../fixtures/store/wal-reader.mjs', import.meta.url));

interface ReaderResult {
  reads: number;
  seen: number[];
  errors: string[];
  final: number;
}

describe('WAL: a reader in another process while this one writes', () => {
  const tmp = useTempDir();

  it('reads increasing, committed counts without SQLITE_BUSY', async () => {
    const file = tmp.file('shared.thicket');
    const store = openProject(file, { create: true });
    const logId = store.logs.beginImport({ name: 'live', format: 'pcd', sourcePath: null, profileId: null, jobId: null });
    const total = 300;
    try {
      const child = spawn(process.execPath, [READER, file, String(logId), String(total), '1500'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const ready = new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
          if (stdout.startsWith('ready\n')) resolve();
        });
        child.on('exit', () => reject(new Error(`reader exited before it was ready: ${stderr}`)));
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await ready;

      // ~1.5 s of writes: each append is its own transaction of a 64-packet chunk (~100 KB).
      const chunk = makeChunk(0, 64, 64, 9);
      for (let seq = 0; seq < total; seq++) {
        store.logs.appendChunk(logId, seq, { ...chunk, packetStart: seq * 64 });
        if (seq % 10 === 9) await sleep(50);
      }
      store.logs.finishImport(logId, { packets: total * 64, points: 0, hits: 0, misses: 0, durationS: 0, bounds: null });

      const code = await exited;
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const result = JSON.parse(stdout.split('\n')[1]!) as ReaderResult;
      expect(result.errors).toEqual([]);
      expect(result.final).toBe(total);
      // It saw the log grow while it was being written, never a count going back.
      expect(result.seen.length).toBeGreaterThan(5);
      for (let i = 1; i < result.seen.length; i++) expect(result.seen[i]!).toBeGreaterThan(result.seen[i - 1]!);
      expect(result.reads).toBeGreaterThan(result.seen.length);
    } finally {
      store.close();
    }
  });
});
