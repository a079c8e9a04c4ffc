import { describe, expect, it } from 'vitest';
import { framesAt, medianPeriod, planIndexAt, planVertices, polylineLength, poseAt, stepTime, trackAt } from '../../../src-renderer/components/studies/run-timeline';

// A VLP-16-like run: scans of 0.1 s ending at 0.1 … 1.0 s; poses at each scan's start and at the end.
const frameTime = Float64Array.from({ length: 10 }, (_, k) => (k + 1) / 10);
const poses = new Float64Array(5 * 11);
for (let r = 0; r <= 10; r++) poses.set([r / 10, 2 * (r / 10), 0, 0, r < 5 ? 0 : Math.PI / 2], 5 * r);

describe('framesAt', () => {
  it('counts the scans that have ended by t (frameTime ≤ t, as studies.costmap does)', () => {
    expect(framesAt(frameTime, 0)).toBe(0);
    expect(framesAt(frameTime, 0.099)).toBe(0);
    expect(framesAt(frameTime, 0.1)).toBe(1);
    expect(framesAt(frameTime, 0.3 - 1e-12)).toBe(3); // float noise at a scan end still counts it
    expect(framesAt(frameTime, 0.55)).toBe(5);
    expect(framesAt(frameTime, 99)).toBe(10);
    expect(framesAt(new Float64Array(0), 1)).toBe(0);
  });
});

describe('poseAt and trackAt', () => {
  it('interpolates between the scan-start poses and holds at the ends', () => {
    expect(poseAt(poses, 0.25)).toMatchObject({ x: 0.5, y: 0, yaw: 0 });
    expect(poseAt(poses, -1)).toMatchObject({ x: 0, y: 0 });
    expect(poseAt(poses, 5)).toMatchObject({ x: 2, yaw: Math.PI / 2 });
    expect(poseAt(new Float64Array(0), 1)).toBeNull();
    const p = poseAt(poses, 0.45)!;
    expect(p.x).toBeCloseTo(0.9, 12);
    expect(p.yaw).toBeCloseTo(Math.PI / 4, 12);
  });

  it('turns the short way across ±π', () => {
    const q = Float64Array.from([0, 0, 0, 0, Math.PI - 0.1, 1, 0, 0, 0, -Math.PI + 0.1]);
    expect(Math.abs(poseAt(q, 0.5)!.yaw)).toBeCloseTo(Math.PI, 12);
  });

  it('track: the poses so far, ending at the vehicle', () => {
    expect([...trackAt(poses, 0.25)]).toEqual([0, 0, 0.2, 0, 0.4, 0, 0.5, 0]);
    expect(trackAt(poses, 0).length).toBe(4); // the start twice: a zero-length line
    expect(trackAt(poses, 10).length).toBe(2 * 12);
  });
});

describe('plans', () => {
  // plan 0 made before any scan, plan 1 after 3 scans (no path), plan 2 after 6
  const planFrame = Uint32Array.from([0, 3, 6]);
  const planStart = Uint32Array.from([0, 3, 3, 5]);
  const planXY = Float32Array.from([0, 0, 3, 4, 6, 8, 1, 1, 1, 2]);

  it('the plan in force after n scans is the last made with at most n', () => {
    expect([0, 2, 3, 5, 6, 10].map((n) => planIndexAt(planFrame, n))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(planIndexAt(Uint32Array.from([2]), 1)).toBe(-1);
  });

  it('vertices of a plan; an empty plan has none', () => {
    expect([...planVertices(planStart, planXY, 0)]).toEqual([0, 0, 3, 4, 6, 8]);
    expect(planVertices(planStart, planXY, 1).length).toBe(0);
    expect([...planVertices(planStart, planXY, 2)]).toEqual([1, 1, 1, 2]);
    expect(planVertices(planStart, planXY, -1).length).toBe(0);
    expect(polylineLength(planVertices(planStart, planXY, 0))).toBeCloseTo(10, 6);
  });
});

describe('stepTime', () => {
  const lms = Float64Array.from({ length: 75 }, (_, k) => (k + 1) / 75);
  const vlp = frameTime;

  it('steps on the slowest sensor’s scan ends, so every panel moves', () => {
    expect(medianPeriod(vlp)).toBeCloseTo(0.1, 12);
    expect(stepTime([lms, vlp], 0, 1)).toBeCloseTo(0.1, 12);
    expect(stepTime([lms, vlp], 0.1, 1)).toBeCloseTo(0.2, 12);
    expect(stepTime([lms, vlp], 0.15, 1)).toBeCloseTo(0.2, 12);
    expect(stepTime([lms, vlp], 0.15, -1)).toBeCloseTo(0.1, 12);
    expect(stepTime([lms, vlp], 0.2, -1)).toBeCloseTo(0.1, 12);
    expect(stepTime([lms, vlp], 0.1, -1)).toBe(0);
    expect(stepTime([lms, vlp], 0.3, 1, 10, 0.75)).toBe(0.75); // clamped to the end
    expect(stepTime([lms, vlp], 0.5, -1, 10)).toBe(0);
  });

  it('keeps stepping past the slow sensor’s last scan (it reached the goal early) at its period', () => {
    const end = 3;
    expect(stepTime([vlp], 1.0, 1, 1, end)).toBeCloseTo(1.1, 9);
    expect(stepTime([vlp], 1.25, 1, 1, end)).toBeCloseTo(1.3, 9);
    expect(stepTime([vlp], 1.25, -1, 1, end)).toBeCloseTo(1.2, 9);
    expect(stepTime([vlp], 1.3, -1, 1, end)).toBeCloseTo(1.2, 9);
  });

  it('with no scans: t itself, clamped', () => {
    expect(stepTime([], 5, 1, 1, 2)).toBe(2);
    expect(stepTime([new Float64Array(0)], 1, -1)).toBe(1);
  });
});
