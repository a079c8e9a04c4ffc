import { describe, expect, it } from 'vitest';
import { obstacleErrors, obstacleGrid, obstaclesObjective, detectObstacles } from '../../../src-worker/apps/obstacles';
import { groundClouds, groundF1, groundObjective } from '../../../src-worker/apps/ground-app';
import { scanMatchingObjective } from '../../../src-worker/apps/scan-matching';
import { scanInOwnFrame } from '../../../src-worker/apps/log-points';
import { applicationRisk, summariseRisk } from '../../../src-worker/apps/risk';
import { sampleAlphas, ALPHA_RANGES, APPLICATIONS } from '../../../src-worker/apps/alpha-sampling';
import { roomCloud } from './synthetic-scenes';
import { staticLog } from './log-points-fixture';

const { xyz, cls } = roomCloud(8000, 11);
// Two poses 0.3 m and 0.04 rad apart (a quaternion about z).
const yaw = 0.04;
const POSES = [[0, 0, 1, 0, 0, 0, 1], [0.3, -0.1, 1, 0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)]];

describe('α sampling', () => {
  it('draws every parameter inside its interval, the same for the same seed', () => {
    for (const app of APPLICATIONS) {
      const a = sampleAlphas(app, 20, 5);
      expect(sampleAlphas(app, 20, 5)).toEqual(a);
      expect(sampleAlphas(app, 20, 6)).not.toEqual(a);
      for (const alpha of a) for (const [k, r] of Object.entries(ALPHA_RANGES[app])) {
        expect(alpha[k]).toBeGreaterThanOrEqual(r.lo);
        expect(alpha[k]).toBeLessThanOrEqual(r.hi);
      }
    }
  });
});

describe('scan matching', () => {
  it('recovers the log\'s relative pose of a static scene seen from two poses', () => {
    const log = staticLog(xyz, cls, POSES);
    const scans = [scanInOwnFrame(log, 0, 10_000), scanInOwnFrame(log, 1, 10_000)];
    const alpha = { logVoxelSize: Math.log10(0.2), logMinObjectiveChange: -10, maxCorrespondenceDistance: 1.5, iterations: 50 };
    const j = scanMatchingObjective(scans, [0], alpha, 1);
    expect(j.pairs).toBe(1);
    expect(j.position).toBeLessThan(0.02);
    expect(j.angle).toBeLessThan(2e-3);
  });

  it('a single ICP iteration leaves a known error of about the motion', () => {
    const log = staticLog(xyz, cls, POSES);
    const scans = [scanInOwnFrame(log, 0, 10_000), scanInOwnFrame(log, 1, 10_000)];
    const j = scanMatchingObjective(scans, [0], { logVoxelSize: -1, logMinObjectiveChange: -10, maxCorrespondenceDistance: 1e-6, iterations: 1 }, 1);
    // No correspondence within 1 µm: the estimate stays at the identity, the error is the motion.
    expect(j.position).toBeCloseTo(Math.hypot(0.3, 0.1), 6);
    expect(j.angle).toBeCloseTo(yaw, 6);
  });
});

describe('obstacles', () => {
  const grid = obstacleGrid(staticLog(xyz, cls, [POSES[0]!]));

  it('a costmap against itself has no false or missed cells; a known perturbation its count', () => {
    const d = detectObstacles(grid, { hMax: 1, lethalCost: 50, groundWindowCells: 3, minHits: 1 });
    expect(obstacleErrors(d, d)).toEqual({ falseCells: 0, missedCells: 0 });
    const p = d.slice();
    let added = 0, removed = 0;
    for (let c = 0; c < p.length && (added < 7 || removed < 4); c++) {
      if (!p[c] && added < 7) { p[c] = 1; added++; } else if (p[c] && removed < 4) { p[c] = 0; removed++; }
    }
    expect(obstacleErrors(p, d)).toEqual({ falseCells: 7, missedCells: 4 });
  });

  it('finds the walls and the box of the constructed room, nothing on its floor', () => {
    const j = obstaclesObjective(grid, { hMax: 1, lethalCost: 50, groundWindowCells: 3, minHits: 1 });
    const truth = grid.truth.reduce((s, v) => s + v, 0);
    expect(truth).toBeGreaterThan(100);
    expect(j.falseCells).toBe(0);
    expect(j.missedCells / truth).toBeLessThan(0.02);
    // An h_max no point reaches the lethal cost of: every obstacle cell missed.
    expect(obstaclesObjective(grid, { hMax: 100, lethalCost: 90, groundWindowCells: 3, minHits: 1 })).toEqual({ j: truth, falseCells: 0, missedCells: truth });
  });
});

describe('ground segmentation', () => {
  it('F1 of known labels', () => {
    expect(groundF1(Uint8Array.of(1, 1, 0, 0, 1), Uint8Array.of(1, 0, 1, 0, 255))).toBeCloseTo(0.5, 12);
    expect(groundF1(Uint8Array.of(1, 0), Uint8Array.of(1, 0))).toBe(1);
  });

  it('segments the room\'s floor from its walls and box', () => {
    const clouds = groundClouds(staticLog(xyz, cls, [POSES[0]!]));
    const j = groundObjective(clouds, { phiRadius: 1, phiThreshold: 0.05, phiMinNeighbors: 8, maxGroundSlopeDeg: 30 });
    expect(j).toBeLessThan(0.1);
  });
});

describe('risk', () => {
  it('identical real and simulated data give risk 0 for every application', () => {
    const log = staticLog(xyz, cls, POSES);
    for (const app of APPLICATIONS) {
      const r = applicationRisk(app, log, log, { samples: 3, seed: 2, maxPairs: 1, pointsPerScan: 4000 });
      expect(r.risk).toBe(0);
      expect(r.samples).toHaveLength(3);
      expect(r.jRealAtBestAlphaSim).toBe(r.jSimAtBestAlphaSim);
    }
  });

  it('is the mean loss, and the transfer gap is read at the α best in simulation', () => {
    const s = [
      { alpha: { a: 1 }, jReal: 0.5, jSim: 0.2, loss: 0.3 },
      { alpha: { a: 2 }, jReal: 0.4, jSim: 0.1, loss: 0.3 },
      { alpha: { a: 3 }, jReal: 0.3, jSim: 0.6, loss: 0.3 },
    ];
    const r = summariseRisk('obstacles', s, { real: 1, sim: 1, unit: 'grid cells' });
    expect(r.risk).toBeCloseTo(0.3, 12);
    expect(r.bestAlphaSim).toEqual({ a: 2 });
    expect(r.jRealAtBestAlphaSim).toBe(0.4);
  });

  it('refuses a log of one scan for scan matching', () => {
    const one = staticLog(xyz, cls, [POSES[0]!]);
    expect(() => applicationRisk('scan-matching', one, one, { samples: 1, seed: 1, maxPairs: 1, pointsPerScan: 100 })).toThrow(/at least two/);
  });
});
