import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary folder per test file; removed by the returned cleanup. */
export function tempDir(prefix = 'thicket-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A synthetic KITTI .bin of n points (x, y, z, intensity) on a ring, deterministic. */
export function syntheticKitti(n: number): Uint8Array {
  const f = new Float32Array(4 * n);
  for (let i = 0; i < n; i++) {
    const a = (i / n) * Math.PI * 2 * 64;
    const r = 5 + (i % 97) * 0.1;
    f[4 * i] = r * Math.cos(a);
    f[4 * i + 1] = r * Math.sin(a);
    f[4 * i + 2] = -1.5 + (i % 64) * 0.05;
    f[4 * i + 3] = (i % 256) / 255;
  }
  return new Uint8Array(f.buffer);
}
