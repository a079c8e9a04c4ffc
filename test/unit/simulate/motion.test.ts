import { describe, expect, it } from 'vitest';
import { simulatePackets } from '../../../src-worker/simulate/simulate';
import type { PacketRays, SimulationContext, SimulationMode } from '../../../src-worker/simulate/types';
import { constantVelocityTrajectory } from '../../../src-worker/geometry/trajectory';
import { forEachHit } from '../../../src-worker/formats/chunk-points';
import { makeProfile, planeScene } from './helpers';

/**
 * One laser spinning at 10 Hz, 100 firings per revolution (1 ms apart), 10 firings per packet;
 * the vehicle drives at 10 m/s toward a wall at x = 20 m.
 */
const SPEED = 10;
const FIRINGS = 100;
const PER_PACKET = 10;
const PERIOD = 0.1 / FIRINGS;

function spinRays(): (p: number) => PacketRays {
  const rays: PacketRays = { startTime: 0, count: PER_PACKET, dir: new Float64Array(3 * PER_PACKET), time: new Float64Array(PER_PACKET), ring: new Uint16Array(PER_PACKET) };
  return (p) => {
    rays.startTime = p * PER_PACKET * PERIOD;
    const dir = rays.dir as Float64Array, off = rays.time as Float64Array;
    for (let i = 0; i < PER_PACKET; i++) {
      const az = (2 * Math.PI * ((p * PER_PACKET + i) % FIRINGS)) / FIRINGS;
      dir[3 * i] = Math.cos(az);
      dir[3 * i + 1] = Math.sin(az);
      dir[3 * i + 2] = 0;
      off[i] = i * PERIOD;
    }
    return rays;
  };
}

function run(mode: SimulationMode, speed = SPEED) {
  const ctx: SimulationContext = {
    scene: planeScene([{ n: [1, 0, 0], c: 20 }]),
    profile: makeProfile({ beam: { divergenceH: 0, divergenceV: 0 }, returns: { mode: 'first', signalCutoff: 1 } }),
    rays: spinRays(),
    trajectory: constantVelocityTrajectory([0, 0, 0, 0, 0, 0, 1], [speed, 0, 0], 0, 1),
    seed: 1,
    mode,
  };
  return simulatePackets(ctx, 0, 20); // two revolutions
}

describe('motion distortion', () => {
  for (const mode of ['mesh', 'physics'] as const) {
    it(`${mode}: the forward range drops by the distance travelled in a revolution (10 m/s × 0.1 s = 1 m)`, () => {
      const c = run(mode);
      // packet 0 ray 0 fires at t = 0 along +x; packet 10 ray 0 one revolution later
      const r0 = c.rayRange[c.rayStart[0]!]!, r1 = c.rayRange[c.rayStart[10]!]!;
      expect(r0).toBeCloseTo(20, 4);
      expect(r1).toBeCloseTo(19, 4);
      expect(r0 - r1).toBeCloseTo(SPEED * 0.1, 4);
    });

    it(`${mode}: each ray is cast from the pose at its own firing time and stored in its packet's frame`, () => {
      const c = run(mode);
      let hits = 0, maxShift = 0;
      // (x, y, z) = packetPose · (r · dir), the hit in the world
      forEachHit(c, (i, x, y, _z, p) => {
        hits++;
        expect(x).toBeCloseTo(20, 4); // on the wall
        const tf = c.packetTime[p]! + c.rayTime[i]!;
        const k = p * PER_PACKET + (i - c.rayStart[p]!);
        const az = (2 * Math.PI * (k % FIRINGS)) / FIRINGS;
        // cast from x = v·t_f along the firing azimuth
        expect(y).toBeCloseTo((20 - SPEED * tf) * Math.tan(az), 4);
        maxShift = Math.max(maxShift, Math.abs(y - (20 - SPEED * c.packetTime[p]!) * Math.tan(az)));
      });
      expect(hits).toBeGreaterThan(20);
      expect(maxShift).toBeGreaterThan(0.05); // the distortion is real: firing time, not packet time
    });
  }

  it('a stationary sensor keeps the input directions exactly', () => {
    const c = run('mesh', 0);
    const src = spinRays()(0);
    for (let i = 0; i < PER_PACKET * 3; i++) expect(c.rayDir[i]).toBe(Math.fround(src.dir[i]!));
  });
});
