import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchEngine } from '../../../src-main/services/bench-engine';
import { benchEngineTask, type BenchEngineTaskInput } from '../../../src-worker/tasks/bench-engine';
import { encodeRaysFile, encodeTrianglesFile } from '../../../src-worker/formats/bench-files';
import { buildOffroadBenchScene } from '../../../src-worker/site/offroad';
import { revolutionRays } from '../../../src-worker/site/bench-rays';
import { flattenSceneTriangles } from '../../../src-worker/scene/scene-data';
import type { TaskContext } from '../../../src-worker/tasks/task-context';

const ctx = { checkCancelled() {}, progress() {}, cancelled: false } as unknown as TaskContext;

describe('engine benchmark (in-process runTask)', () => {
  it('benchmarks bench files: engine and three-mesh-bvh agree on hits; NaN rays are skipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thicket-bench-test-'));
    try {
      const s = buildOffroadBenchScene({ seed: 3, sizeM: 40, targetTriangles: 40_000 });
      const rays = revolutionRays([s.poses[2]!], { azimuthStepDeg: 3 });
      const withNaN = new Float32Array(rays.length + 12);
      withNaN.set(rays);
      withNaN.set([NaN, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], rays.length);
      writeFileSync(join(dir, 't.bin'), encodeTrianglesFile(flattenSceneTriangles(s.data).positions));
      writeFileSync(join(dir, 'r.bin'), encodeRaysFile(withNaN, 120));
      const calls: string[] = [];
      const runTask = (input: BenchEngineTaskInput) => {
        calls.push(input.op);
        return benchEngineTask(input, ctx);
      };
      const r = await benchEngine({ trianglesFile: join(dir, 't.bin'), raysFile: join(dir, 'r.bin'), workers: 3, runTask }, () => {});
      expect(r.details.rays).toBe(rays.length / 6);
      expect(r.details.skippedRays).toBe(2);
      expect(r.engine.hits).toBeGreaterThan(0.5 * r.details.rays);
      expect(r.threeMeshBvh.hits).toBe(r.engine.hits);
      expect(r.details.hitDifference).toBe(0);
      expect(r.engine.raysPerSecond).toBeGreaterThan(0);
      expect(r.engine.raysPerSecondPool).toBeGreaterThan(0);
      expect(r.engine.memoryBytes).toBeGreaterThan(0);
      expect(calls.filter((c) => c === 'engine').length).toBe(1 + 2 * 3);
      await expect(benchEngine({ trianglesFile: join(dir, 't.bin'), workers: 1, runTask }, () => {})).rejects.toThrow(/--triangles needs --rays/);
      writeFileSync(join(dir, 'bad.bin'), new Uint8Array([1, 2]));
      await expect(benchEngine({ trianglesFile: join(dir, 't.bin'), raysFile: join(dir, 'bad.bin'), workers: 1, runTask }, () => {})).rejects.toThrow(/bad\.bin/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
