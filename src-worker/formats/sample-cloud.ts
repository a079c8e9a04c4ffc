/**
 * A small deterministic cloud with every optional channel and two non-finite points: the PCD
 * fuzz samples (pcd/pcd-format.ts) and the decoder tests encode it.
 */
import type { DecodedCloud } from './decoded-cloud';

export function sampleCloud(n = 50, seed = 1): DecodedCloud {
  let s = seed;
  const r = (): number => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 2 ** 32; };
  const xyz = new Float32Array(3 * n), intensity = new Float32Array(n);
  const ring = new Uint16Array(n), time = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    xyz[3 * i] = (r() - 0.5) * 200; xyz[3 * i + 1] = (r() - 0.5) * 1e-3; xyz[3 * i + 2] = (r() - 0.5) * 3e5;
    intensity[i] = Math.floor(r() * 256) / 3;
    ring[i] = i % 32;
    time[i] = i * 1e-4 + r() * 1e-6;
  }
  time[0] = 0;
  xyz[3 * 3] = NaN; // non-finite points survive every format and count as dropped
  xyz[3 * 7 + 2] = Infinity;
  return { count: n, xyz, intensity, ring, time, timeBase: 0, viewpoint: [1, 2, 3, 0, 0, Math.SQRT1_2, Math.SQRT1_2], dropped: 2 };
}

