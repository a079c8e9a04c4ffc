import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cliTempHome, runCli } from '../../helpers/cli';

const tmp = cliTempHome();
const { env } = tmp;

describe('thicket scene / simulate / validate', () => {
  const p = join(tmp.dir, 'sim.thicket');

  it('generates a scene and simulates a VLP-16 through it in physics mode', () => {
    expect(runCli(['project', 'create', '--project', p], env).status).toBe(0);
    const gen = runCli(['scene', 'generate', '--project', p, '--kind', 'offroad', '--seed', '3', '--param', 'sizeM=30', '--param', 'targetTriangles=50000', '--json'], env);
    expect(gen.status).toBe(0);
    const scene = gen.json as { scene: number; triangles: number; instances: number };
    expect(scene.scene).toBe(1);
    expect(scene.triangles).toBeGreaterThan(40_000);
    const sim = runCli(['simulate', '--project', p, '--scene', '1', '--profile', 'vlp16', '--mode', 'physics', '--seconds', '0.1', '--start', '5,15,1', '--json', '--workers', '2'], env);
    expect(sim.status).toBe(0);
    const r = sim.json as { run: number; packets: number; rays: number; hits: number; misses: number; durationS: number };
    // VLP-16 at 10 Hz: one revolution ≈ 0.1 s ≈ 28,935 firings (16 lasers × 1808.5 sequences).
    expect(r.rays).toBeGreaterThan(28_000);
    expect(r.rays).toBeLessThan(30_000);
    expect(r.hits + r.misses).toBeGreaterThanOrEqual(r.rays);
    expect(r.hits).toBeGreaterThan(1_000); // the ground in front of the sensor at least
    expect(r.durationS).toBeCloseTo(0.1, 2);
    expect(sim.stderr).toMatch(/simulate #\d+: 100%/);
    const info = runCli(['project', 'info', '--project', p, '--json'], env).json as { counts: Record<string, number> };
    expect(info.counts).toMatchObject({ scenes: 1, runs: 1 });
  });

  it('refuses bad simulation requests with clear messages and stores nothing', () => {
    const bad = (args: string[]) => runCli(args, env);
    expect(bad(['simulate', '--project', p, '--profile', 'vlp16']).stderr).toContain('--scene S is required');
    expect(bad(['simulate', '--project', p, '--scene', '1', '--profile', 'vlp16', '--mode', 'raytrace']).stderr).toContain('unknown mode "raytrace"');
    expect(bad(['simulate', '--project', p, '--scene', '1', '--profile', 'nope']).stderr).toMatch(/nope/);
    expect(bad(['simulate', '--project', p, '--scene', '99', '--profile', 'vlp16']).stderr).toContain('no scene 99');
    expect(bad(['simulate', '--project', p, '--scene', '1', '--profile', 'vlp16', '--start', '1,2']).stderr).toContain('--start: expected x,y,z');
    expect(bad(['scene', 'generate', '--project', p, '--kind', 'forest']).stderr).toContain('unknown scene kind "forest"');
    expect(bad(['scene', 'generate', '--project', p, '--kind', 'offroad', '--param', 'colour=3', '--json']).stderr).toContain('unknown parameter "colour"');
    const info = runCli(['project', 'info', '--project', p, '--json'], env).json as { counts: Record<string, number> };
    expect(info.counts).toMatchObject({ scenes: 1, runs: 1 });
  });

  it('validate mixed-pixel: mixed pixels with the background 0.6 m behind the rods, none at 2 m (003 §3.4.2)', () => {
    const r = runCli(['validate', 'mixed-pixel', '--json'], env);
    expect(r.status).toBe(0);
    const cases = (r.json as { cases: { offset: number; totalReturns: number; mixedPixels: number }[] }).cases;
    expect(cases.map((c) => c.offset)).toEqual([0.6, 2]);
    expect(cases[0]!.mixedPixels).toBeGreaterThan(0);
    expect(cases[1]!.mixedPixels).toBe(0);
    for (const c of cases) expect(c.totalReturns).toBeGreaterThan(500);
  });

  it('validate grass: the gamma law fits better than the exponential law in every case (003 §3.4.1)', () => {
    const r = runCli(['validate', 'grass', '--samples', '400', '--json'], env);
    expect(r.status).toBe(0);
    const cases = (r.json as { cases: Record<string, number>[] }).cases;
    expect(cases).toHaveLength(8);
    for (const c of cases) {
      for (const k of ['lambda', 'd', 'D', 'samples', 'meanPenetration', 'expectedMeanPenetration', 'alpha', 'bhattacharyyaGamma', 'bhattacharyyaExponential']) expect(c).toHaveProperty(k);
      expect(c.expectedMeanPenetration).toBeCloseTo(1 / (c.lambda! * c.d!), 9);
      expect(c.bhattacharyyaGamma!).toBeLessThan(c.bhattacharyyaExponential!);
    }
  });
});
