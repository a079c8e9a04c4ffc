import { describe, expect, it } from 'vitest';
import { RayPairer } from '../../../src-worker/evaluate/ray-pairing';
import { RandomStream } from '../../../src-worker/random/stream';

const DEG = Math.PI / 180;

/** One packet's rays as the pairer reads them. */
function packet(dirs: number[][], returns?: number[]) {
  return {
    rayStart: new Uint32Array([0, dirs.length]),
    rayDir: Float32Array.from(dirs.flat()),
    rayReturn: Uint8Array.from(returns ?? dirs.map(() => 0)),
  };
}

function dir(azDeg: number, elDeg: number): number[] {
  const a = azDeg * DEG, e = elDeg * DEG;
  return [Math.cos(e) * Math.cos(a), Math.cos(e) * Math.sin(a), Math.sin(e)];
}

/** A 32-laser column every 0.2° of azimuth over 30°: HDL-32E-like spacing. */
function scan(): number[][] {
  const out: number[][] = [];
  for (let a = 0; a < 150; a++) for (let l = 0; l < 32; l++) out.push(dir(a * 0.2, -30 + l * 1.33));
  return out;
}

describe('ray pairing', () => {
  it('takes the index path when rays correspond one to one', () => {
    const d = scan();
    const p = new RayPairer(0.1 * DEG);
    expect(p.pair(packet(d), 0, packet(d), 0)).toBe(d.length);
    expect(p.byIndex).toBe(true);
    expect(p.realUnpaired + p.simUnpaired).toBe(0);
  });

  it('recovers the same pairs from shuffled simulated rays, by nearest direction', () => {
    const d = scan();
    const rng = new RandomStream(7);
    const perm = [...d.keys()];
    for (let i = perm.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [perm[i], perm[j]] = [perm[j]!, perm[i]!];
    }
    // jitter each simulated direction by up to 0.02° (well inside the 0.1° tolerance and the 0.2° spacing)
    const sim = perm.map((k) => dir(Math.floor(k / 32) * 0.2 + (rng.next() - 0.5) * 0.04, -30 + (k % 32) * 1.33 + (rng.next() - 0.5) * 0.04));
    const p = new RayPairer(0.1 * DEG);
    const n = p.pair(packet(d), 0, packet(sim), 0);
    expect(p.byIndex).toBe(false);
    expect(n).toBe(d.length);
    for (let k = 0; k < n; k++) expect(perm[p.sim[k]!]).toBe(p.real[k]);
  });

  it('counts rays missing on either side and pairs nothing beyond the tolerance', () => {
    const d = scan();
    const sim = d.filter((_, i) => i % 10 !== 3); // 480 of 4800 missing
    const real = d.filter((_, i) => i % 100 !== 50); // 48 missing; 5 of them also missing from sim
    const p = new RayPairer(0.1 * DEG);
    const n = p.pair(packet(real), 0, packet(sim), 0);
    const both = d.filter((_, i) => i % 10 !== 3 && i % 100 !== 50).length;
    expect(n).toBe(both);
    expect(p.realUnpaired).toBe(real.length - both);
    expect(p.simUnpaired).toBe(sim.length - both);
    // a simulated scan turned by three columns (0.6°): only the 147 overlapping columns pair
    const turned = d.map((_, i) => dir(Math.floor(i / 32) * 0.2 + 0.6, -30 + (i % 32) * 1.33));
    const q = new RayPairer(0.1 * DEG);
    expect(q.pair(packet(d), 0, packet(turned), 0)).toBe(147 * 32);
    expect([q.realUnpaired, q.simUnpaired]).toEqual([3 * 32, 3 * 32]);
    // turned by half a column (0.1°) with a 0.05° tolerance: nothing pairs
    const half = d.map((_, i) => dir(Math.floor(i / 32) * 0.2 + 0.1, -30 + (i % 32) * 1.33));
    expect(new RayPairer(0.05 * DEG).pair(packet(d), 0, packet(half), 0)).toBe(0);
  });

  it('pairs only rays of the same return number (dual-return logs)', () => {
    const d = [dir(0, 0), dir(0, 0), dir(1, 0), dir(1, 0)];
    const p = new RayPairer(0.2 * DEG);
    const n = p.pair(packet(d, [0, 1, 0, 1]), 0, packet([d[1]!, d[0]!, d[3]!, d[2]!], [1, 0, 1, 0]), 0);
    expect(n).toBe(4);
    expect(Array.from(p.sim.slice(0, 4))).toEqual([1, 0, 3, 2]);
  });

  it('ignores non-finite directions without crashing', () => {
    const p = new RayPairer(0.2 * DEG);
    const n = p.pair(packet([[NaN, 0, 0], [1, 0, 0], [1e30, 0, 0]]), 0, packet([[1, 0, 0], [Infinity, 0, 0]]), 0);
    expect(n).toBe(1);
    expect([p.realUnpaired, p.simUnpaired]).toEqual([2, 1]);
    expect(() => new RayPairer(0)).toThrow(/tolerance/);
  });
});
