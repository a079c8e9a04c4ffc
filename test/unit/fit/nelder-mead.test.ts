import { describe, expect, it } from 'vitest';
import { nelderMead } from '../../../src-worker/fit/nelder-mead';

describe('nelderMead', () => {
  it('finds the minimum of a shifted quadratic inside the box (±1e-3)', () => {
    const r = nelderMead(
      [{ name: 'a', lower: -5, upper: 5 }, { name: 'b', lower: 0, upper: 100 }],
      { a: 4, b: 90 },
      (x) => (x.a! - 1.5) ** 2 + ((x.b! - 20) / 20) ** 2,
      { maxEvaluations: 400, tolerance: 1e-6 },
    );
    expect(r.best.a).toBeCloseTo(1.5, 2);
    expect(r.best.b).toBeCloseTo(20, 1);
    expect(r.value).toBeLessThan(1e-4);
    expect(r.stopped).toBe('converged');
  });

  it('reaches the Rosenbrock valley floor from (−1.2, 1) within 600 evaluations', () => {
    const r = nelderMead(
      [{ name: 'x', lower: -2, upper: 2 }, { name: 'y', lower: -1, upper: 3 }],
      { x: -1.2, y: 1 },
      (p) => 100 * (p.y! - p.x! ** 2) ** 2 + (1 - p.x!) ** 2,
      { maxEvaluations: 600, tolerance: 1e-8 },
    );
    expect(r.value).toBeLessThan(1e-3);
    expect(Math.abs(r.best.x! - 1)).toBeLessThan(0.05);
  });

  it('respects the bounds: a minimum outside the box ends on its edge', () => {
    const seen: number[] = [];
    const r = nelderMead([{ name: 't', lower: 0, upper: 1 }], { t: 0.5 }, (x) => { seen.push(x.t!); return (x.t! - 3) ** 2; }, { maxEvaluations: 40 });
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...seen)).toBeLessThanOrEqual(1);
    expect(r.best.t).toBeCloseTo(1, 6);
  });

  it('keeps to the budget, rounds integers and never evaluates a rounded point twice', () => {
    const calls: string[] = [];
    const r = nelderMead(
      [{ name: 'k', lower: 1, upper: 50, integer: true }, { name: 'w', lower: 0, upper: 1 }],
      { k: 10, w: 0.2 },
      (x) => { calls.push(`${x.k},${x.w}`); return Math.abs(x.k! - 33) + (x.w! - 0.7) ** 2; },
      { maxEvaluations: 25 },
    );
    expect(r.evaluations).toBe(calls.length);
    expect(calls.length).toBeLessThanOrEqual(25);
    expect(new Set(calls).size).toBe(calls.length);
    for (const t of r.trace) expect(Number.isInteger(t.x.k)).toBe(true);
    expect(r.trace[0]!.step).toBe('initial');
    expect(r.value).toBeLessThan(Math.abs(10 - 33));
  });

  it('is deterministic and treats a failed evaluation (NaN) as the worst point', () => {
    const f = (x: Record<string, number>) => (x.a! > 0.8 ? NaN : (x.a! - 0.3) ** 2);
    const a = nelderMead([{ name: 'a', lower: 0, upper: 1 }], { a: 0.9 }, f, { maxEvaluations: 30 });
    const b = nelderMead([{ name: 'a', lower: 0, upper: 1 }], { a: 0.9 }, f, { maxEvaluations: 30 });
    expect(a).toEqual(b);
    expect(a.trace[0]!.value).toBe(Number.POSITIVE_INFINITY);
    expect(a.best.a).toBeCloseTo(0.3, 2);
  });

  it('stops when the callback throws (cancel) and rejects a budget below n + 1', () => {
    let n = 0;
    expect(() => nelderMead([{ name: 'a', lower: 0, upper: 1 }], { a: 0.5 }, (x) => x.a!, {
      maxEvaluations: 50,
      onEvaluation: () => { if (++n === 3) throw new Error('cancelled'); },
    })).toThrow('cancelled');
    expect(n).toBe(3);
    expect(() => nelderMead([{ name: 'a', lower: 0, upper: 1 }, { name: 'b', lower: 0, upper: 1 }], { a: 0, b: 0 }, () => 0, { maxEvaluations: 2 })).toThrow(/budget of 2/);
    expect(() => nelderMead([{ name: 'a', lower: 1, upper: 1 }], { a: 1 }, () => 0, { maxEvaluations: 5 })).toThrow(/lower < upper/);
  });
});
