import { describe, expect, it } from 'vitest';
import { beamBasis, beamStencil, equalAreaStencilScale, offsetDirection, sampleSpot, spotHalfWidths } from '../../../src-worker/simulate/stencil';
import { measureRange, newPulseReturns, processPulse, quantiseRange } from '../../../src-worker/simulate/returns';
import { ChunkBuilder } from '../../../src-worker/formats/chunk-builder';
import { RandomStream } from '../../../src-worker/random/stream';

describe('beam stencil', () => {
  it('circular: centre plus 8 points on a circle of radius √5/3 · tan(γ/2) (equal-area cells)', () => {
    const g = 0.01;
    const s = beamStencil('circular', g, g);
    expect(s.length).toBe(18);
    expect([s[0], s[1]]).toEqual([0, 0]);
    const R = Math.tan(g / 2) * Math.sqrt(5) / 3;
    for (let k = 1; k < 9; k++) {
      expect(Math.hypot(s[2 * k]!, s[2 * k + 1]!)).toBeCloseTo(R, 15);
      expect(Math.atan2(s[2 * k + 1]!, s[2 * k]!)).toBeCloseTo(Math.atan2(Math.sin((k - 1) * Math.PI / 4), Math.cos((k - 1) * Math.PI / 4)), 12);
    }
    // equal area: the disc of radius R/3 holds 1/9 of the spot; √5/3 halves the outer cells
    const r1 = 1 / 3, r = Math.sqrt(5) / 3;
    expect(r * r - r1 * r1).toBeCloseTo(1 - r * r, 12);
  });

  it('rectangular: corners and edge midpoints of the 3 × 3 equal grid (2/3 of the half-widths)', () => {
    const s = beamStencil('rectangular', 0.0033, 0.0007);
    const a = Math.tan(0.0033 / 2) * 2 / 3, b = Math.tan(0.0007 / 2) * 2 / 3;
    const pts = Array.from({ length: 9 }, (_, k) => [s[2 * k]!, s[2 * k + 1]!].map((v) => +v.toExponential(8)));
    const want = [[0, 0], [a, 0], [a, b], [0, b], [-a, b], [-a, 0], [-a, -b], [0, -b], [a, -b]].map((p) => p.map((v) => +v.toExponential(8)));
    expect(pts).toEqual(want);
    expect(equalAreaStencilScale('rectangular')).toBeCloseTo(2 / 3, 15);
  });

  it('elliptical: points on an ellipse with the two half-widths; scale overrides', () => {
    const s = beamStencil('elliptical', 0.004, 0.002, 1);
    const [a, b] = spotHalfWidths('elliptical', 0.004, 0.002);
    for (let k = 1; k < 9; k++) expect((s[2 * k]! / a) ** 2 + (s[2 * k + 1]! / b) ** 2).toBeCloseTo(1, 12);
    expect(spotHalfWidths('circular', 0.004, 0.002)).toEqual([Math.tan(0.002), Math.tan(0.002)]);
  });

  it('the basis is orthonormal, u horizontal, v = d × u (up for a horizontal beam)', () => {
    const b = new Float64Array(6);
    beamBasis(1, 0, 0, b);
    expect(Array.from(b, (v) => v + 0)).toEqual([0, 1, 0, 0, 0, 1]); // + 0 folds −0 into 0
    const d = [0.3, -0.5, Math.sqrt(1 - 0.34)];
    beamBasis(d[0]!, d[1]!, d[2]!, b);
    const dot = (p: number[], q: number[]) => p[0]! * q[0]! + p[1]! * q[1]! + p[2]! * q[2]!;
    const u = [b[0]!, b[1]!, b[2]!], v = [b[3]!, b[4]!, b[5]!];
    expect(u[2]).toBe(0);
    expect(dot(u, u)).toBeCloseTo(1, 12);
    expect(dot(v, v)).toBeCloseTo(1, 12);
    expect(dot(u, v)).toBeCloseTo(0, 12);
    expect(dot(u, d)).toBeCloseTo(0, 12);
    beamBasis(0, 0, 1, b); // vertical
    expect([b[0], b[1], b[2]]).toEqual([0, 1, 0]);
    const out = new Float64Array(3);
    offsetDirection(1, 0, 0, (beamBasis(1, 0, 0, b), b), 0.01, 0, out, 0);
    expect(Math.atan2(out[1]!, out[0]!)).toBeCloseTo(Math.atan(0.01), 12);
  });

  it('samples the spot uniformly (rectangle: uniform in each axis)', () => {
    const rng = new RandomStream(8, 0);
    const o = new Float64Array(2);
    let sx2 = 0, maxA = 0;
    const n = 50_000;
    for (let i = 0; i < n; i++) {
      sampleSpot('rectangular', 2, 1, rng, o);
      sx2 += o[0]! * o[0]!;
      maxA = Math.max(maxA, Math.abs(o[0]!) / 2, Math.abs(o[1]!));
    }
    expect(maxA).toBeLessThanOrEqual(1);
    expect(sx2 / n).toBeCloseTo(4 / 3, 1); // E[x²] = a²/3
  });
});

describe('return processing', () => {
  const out = newPulseReturns();
  const t = [10, 10.2, 12, 10.1], I = [0.5, 0.9, 0.9, 0.2];
  it('strongest (first on ties), last, first (mean within the cutoff), dual', () => {
    expect(processPulse('strongest', 1, 4, t, I, out)).toBe(1);
    expect([out[0].range, out[0].sub]).toEqual([10.2, 1]);
    processPulse('last', 1, 4, t, I, out);
    expect([out[0].range, out[0].sub]).toEqual([12, 2]);
    processPulse('first', 1, 4, t, I, out);
    expect(out[0].range).toBeCloseTo((10 + 10.2 + 10.1) / 3, 12);
    expect(out[0].intensity).toBeCloseTo((0.5 + 0.9 + 0.2) / 3, 12);
    expect(out[0].sub).toBe(0);
    processPulse('first', 100, 4, t, I, out);
    expect(out[0].range).toBeCloseTo((10 + 10.2 + 12 + 10.1) / 4, 12);
    expect(processPulse('strongest+last', 1, 4, t, I, out)).toBe(2);
    expect([out[0].range, out[1].range]).toEqual([10.2, 12]);
    expect(processPulse('strongest+last', 2, 4, t, I, out)).toBe(1);
    expect(processPulse('first', 1, 0, t, I, out)).toBe(0);
  });

  it('measures: noise only when σ > 0, quantisation, limits', () => {
    const rng = new RandomStream(1, 0);
    const m = { sigma: 0, resolution: 0.01, min: 1, max: 20 };
    expect(measureRange(10.004, m, rng)).toBeCloseTo(10, 12);
    expect(measureRange(0.5, m, rng)).toBeNaN();
    expect(measureRange(20.02, m, rng)).toBeNaN();
    expect(quantiseRange(5.126, m)).toBeCloseTo(5.13, 12);
    const untouched = new RandomStream(1, 0);
    expect(rng.nextUint32()).toBe(untouched.nextUint32()); // σ = 0 drew nothing
  });
});

describe('ChunkBuilder', () => {
  it('grows past its capacities and trims on finish', () => {
    const b = new ChunkBuilder(7, 2, 1);
    for (let p = 0; p < 5; p++) {
      b.beginPacket(p * 0.1, [p, 0, 0, 0, 0, 0, 1]);
      for (let i = 0; i < 3; i++) b.pushRay(1, 0, 0, p + i, 0.5, i * 1e-5, i, 0, 9, 2);
    }
    const c = b.finish();
    expect(c.packetStart).toBe(7);
    expect(c.packetCount).toBe(5);
    expect(c.rayCount).toBe(15);
    expect(Array.from(c.rayStart)).toEqual([0, 3, 6, 9, 12, 15]);
    expect(c.packetPose.length).toBe(35);
    expect(c.packetPose[7 * 4]).toBe(4);
    expect(c.rayRange[14]).toBe(6);
    expect(c.rayDir.length).toBe(45);
    expect(c.rayObject.every((o) => o === 9)).toBe(true);
    expect(() => new ChunkBuilder(0).pushRay(1, 0, 0, 1, 0, 0, 0, 0, 0, 0)).toThrow(/outside a packet/);
  });

  it('an empty packet has no rays', () => {
    const b = new ChunkBuilder(0);
    b.beginPacket(0, [0, 0, 0, 0, 0, 0, 1]);
    b.beginPacket(1, [0, 0, 0, 0, 0, 0, 1]);
    b.pushRay(1, 0, 0, 1, 0, 0, 0, 0, 0, 0);
    const c = b.finish();
    expect(Array.from(c.rayStart)).toEqual([0, 0, 1]);
  });
});
