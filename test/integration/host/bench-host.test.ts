import { describe, expect, it } from 'vitest';
import { cliTempHome, runCliOk } from '../../helpers/cli';
import type { HostBench } from '../../../src-main/services/bench-host';

const tmp = cliTempHome();

/** Every step the host bench meters, in the order it first enters them. */
const STEPS = ['demo', 'import', 'generate', 'simulate', 'fit', 'extract', 'compose', 'evaluate', 'preview', 'views', 'study'];

describe('thicket bench --only host', () => {
  it('prints {host: {maxStallMs, p99StallMs, maxBusyMs, steps: [{step, maxStallMs, p99StallMs, maxBusyMs, seconds}], small, previewTriangles, project}} on the small demo', () => {
    const r = runCliOk(['bench', '--only', 'host', '--small', '--seconds', '0.2', '--json'], tmp.env);
    const out = r.json as { host: HostBench };
    expect(Object.keys(out)).toEqual(['host']);
    const h = out.host;
    expect(Object.keys(h).sort()).toEqual(['maxBusyMs', 'maxStallMs', 'p99StallMs', 'previewTriangles', 'project', 'small', 'steps']);
    expect(h.small).toBe(true);
    expect(h.previewTriangles).toBe(200_000);
    expect(h.project).toBe('(temporary)');
    expect(h.steps.map((s) => s.step)).toEqual(STEPS);
    // Timings are the machine's; only their form is checked: finite, non-negative, p99 ≤ max.
    for (const s of [h, ...h.steps]) {
      expect(Number.isFinite(s.maxStallMs) && s.maxStallMs >= 0, JSON.stringify(s)).toBe(true);
      expect(s.p99StallMs).toBeGreaterThanOrEqual(0);
      expect(s.p99StallMs).toBeLessThanOrEqual(s.maxStallMs);
      // The host's own CPU time between two turns (Node 22.19+ can tell it): never negative.
      if (s.maxBusyMs !== null) expect(s.maxBusyMs).toBeGreaterThanOrEqual(0);
    }
    for (const s of h.steps) {
      expect(Object.keys(s).sort()).toEqual(['maxBusyMs', 'maxStallMs', 'p99StallMs', 'seconds', 'step']);
      expect(s.seconds).toBeGreaterThan(0);
    }
    expect(r.stderr).toMatch(/host: longest event-loop stall [\d.]+ ms/);
  }, 300_000);
});
