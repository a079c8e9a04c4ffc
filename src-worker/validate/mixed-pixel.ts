/**
 * Validation of the physics mode against the mixed-pixel bench (003 §3.4.2, after Tuley et al.):
 * nine vertical rods 12.7 cm apart in a row parallel to a flat background board, all 25 mm in
 * diameter except one of 75 mm (the middle one here: the paper does not say which), 80 cm in
 * front of a SICK LMS-291 (1°, 100° field of view, circular 12.9 mrad spot, 1.6 m signal cutoff,
 * first return). With the board 0.6 m behind the rods the sensor reports mixed pixels — returns
 * on neither surface, where a spot straddling a rod edge averages rod and board sub-returns —
 * and with the board 2 m behind none, since the board's sub-returns then lie beyond the 1.6 m
 * cutoff of the nearest.
 *
 * A mixed pixel is a return more than 5 cm from every rod's surface and from the board's plane.
 * The profile is a parameter (default: the built-in LMS-291 100°/1°); the scanner sits at the
 * origin facing +x with the bench at its height; each scan is one packet, so scan s draws from
 * the stream (seed, s) (range noise).
 */
import { applyPose, staticTrajectory } from '../geometry/trajectory';
import type { SceneQuery } from '../scene/scene-query';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { lms291Profile } from '../sensors/devices';
import { packetRays, revolutionPattern } from '../sensors/scan-pattern';
import { simulatePackets } from '../simulate/simulate';
import type { SimulationContext } from '../simulate/types';
import { AnalyticScene, type BoardX, type VerticalCylinder } from './analytic-scene';

export interface RodBench {
  rods: VerticalCylinder[];
  board: BoardX;
}

export interface RodBenchOptions {
  /** Distance from the scanner to the row of rod centres (m). */
  rowDistance?: number;
  /** Background board behind the row of rods (m). */
  backgroundOffset: number;
  spacing?: number;
  rodDiameter?: number;
  largeRodDiameter?: number;
  /** Index (0–8) of the 75 mm rod. */
  largeRodIndex?: number;
}

/** The rods and board of the bench, analytically (scanner at the origin, x towards the bench). */
export function rodBench(o: RodBenchOptions): RodBench {
  const row = o.rowDistance ?? 0.8;
  const spacing = o.spacing ?? 0.127;
  const large = o.largeRodIndex ?? 4;
  const rods: VerticalCylinder[] = [];
  for (let k = 0; k < 9; k++) {
    const diameter = k === large ? (o.largeRodDiameter ?? 0.075) : (o.rodDiameter ?? 0.025);
    rods.push({ x: row, y: (k - 4) * spacing, radius: diameter / 2, z0: -0.5, z1: 0.5, reflectance: 0.5, objectId: k + 1, classId: 1 });
  }
  const board: BoardX = { x: row + o.backgroundOffset, y0: -5, y1: 5, z0: -1, z1: 1, reflectance: 0.5, objectId: 100, classId: 2 };
  return { rods, board };
}

export interface MixedPixelOptions {
  seed?: number;
  /** Background offsets behind the rods (m); paper: 0.6 and 2. */
  offsets?: number[];
  /** Scanner profile (default: the LMS-291 at 100° / 1°). */
  profile?: SensorProfile;
  /** Scans per case (default 10). */
  scans?: number;
  /** Distance from every surface beyond which a return is a mixed pixel (m). */
  threshold?: number;
  /** Build the scene of a bench (default: analytic rods and board). */
  sceneOf?: (bench: RodBench) => SceneQuery;
  stencilScale?: number;
}

export interface MixedPixelCase {
  offset: number;
  totalReturns: number;
  mixedPixels: number;
}

export interface MixedPixelReport {
  cases: MixedPixelCase[];
  settings: { seed: number; profile: string; scans: number; threshold: number; rowDistance: number; returnMode: string; signalCutoff: number; divergence: number };
}

export function validateMixedPixel(opts: MixedPixelOptions = {}): MixedPixelReport {
  const seed = opts.seed ?? 1;
  const profile = opts.profile ?? lms291Profile(100, 1);
  const scans = opts.scans ?? 10;
  const threshold = opts.threshold ?? 0.05;
  const pattern = revolutionPattern(profile);
  const sceneOf = opts.sceneOf ?? ((b: RodBench) => new AnalyticScene(b.rods, [b.board]));
  const cases: MixedPixelCase[] = [];
  const w = new Float64Array(3);
  for (const offset of opts.offsets ?? [0.6, 2]) {
    const bench = rodBench({ backgroundOffset: offset });
    const ctx: SimulationContext = {
      scene: sceneOf(bench),
      profile,
      rays: (p) => packetRays(pattern, p),
      trajectory: staticTrajectory(),
      mount: [0, 0, 0, 0, 0, 0, 1],
      seed,
      mode: 'physics',
      options: opts.stencilScale !== undefined ? { stencilScale: opts.stencilScale } : {},
    };
    const packets = scans * pattern.packetsPerRevolution;
    const chunk = simulatePackets(ctx, 0, packets);
    let total = 0, mixed = 0;
    for (let p = 0; p < chunk.packetCount; p++) {
      for (let i = chunk.rayStart[p]!; i < chunk.rayStart[p + 1]!; i++) {
        const r = chunk.rayRange[i]!;
        if (Number.isNaN(r)) continue;
        total++;
        applyPose(chunk.packetPose, 7 * p, r * chunk.rayDir[3 * i]!, r * chunk.rayDir[3 * i + 1]!, r * chunk.rayDir[3 * i + 2]!, w, 0);
        let nearest = Math.abs(w[0]! - bench.board.x);
        for (const rod of bench.rods) nearest = Math.min(nearest, Math.abs(Math.hypot(w[0]! - rod.x, w[1]! - rod.y) - rod.radius));
        if (nearest > threshold) mixed++;
      }
    }
    cases.push({ offset, totalReturns: total, mixedPixels: mixed });
  }
  return {
    cases,
    settings: {
      seed, profile: profile.id, scans, threshold, rowDistance: 0.8,
      returnMode: profile.returns.mode, signalCutoff: profile.returns.signalCutoff, divergence: profile.beam.divergenceH,
    },
  };
}
