/**
 * Benchmark rays: full revolutions of a spinning multi-laser lidar from given poses.
 *
 *   revolutionRays(poses: ArrayLike<number>[] (7 each), opts?: RevolutionOptions): Float32Array
 *     6 floats per ray (origin, unit direction), pose by pose, azimuth-major then laser.
 *     Defaults are HDL-64E-like: 64 lasers with elevations evenly spaced over −24.8° … +2°,
 *     0.09° azimuth step (4000 azimuths) ⇒ 256,000 rays per pose.
 */
import { poseRotationMatrix } from '../geometry/pose';

export interface RevolutionOptions {
  lasers?: number;
  minElevationDeg?: number;
  maxElevationDeg?: number;
  azimuthStepDeg?: number;
}

export function revolutionRays(poses: readonly ArrayLike<number>[], opts: RevolutionOptions = {}): Float32Array {
  const lasers = opts.lasers ?? 64;
  const e0 = ((opts.minElevationDeg ?? -24.8) * Math.PI) / 180, e1 = ((opts.maxElevationDeg ?? 2) * Math.PI) / 180;
  const step = opts.azimuthStepDeg ?? 0.09;
  const azimuths = Math.round(360 / step);
  const perPose = lasers * azimuths;
  const rays = new Float32Array(6 * perPose * poses.length);
  const R = new Float64Array(9);
  const ce = new Float64Array(lasers), se = new Float64Array(lasers);
  for (let l = 0; l < lasers; l++) {
    const e = lasers === 1 ? e0 : e0 + ((e1 - e0) * l) / (lasers - 1);
    ce[l] = Math.cos(e);
    se[l] = Math.sin(e);
  }
  let w = 0;
  for (const pose of poses) {
    poseRotationMatrix(pose, 0, R, 0);
    const ox = pose[0]!, oy = pose[1]!, oz = pose[2]!;
    for (let a = 0; a < azimuths; a++) {
      const az = (2 * Math.PI * a) / azimuths, ca = Math.cos(az), sa = Math.sin(az);
      for (let l = 0; l < lasers; l++) {
        const x = ce[l]! * ca, y = ce[l]! * sa, z = se[l]!;
        rays[w] = ox; rays[w + 1] = oy; rays[w + 2] = oz;
        rays[w + 3] = R[0]! * x + R[1]! * y + R[2]! * z;
        rays[w + 4] = R[3]! * x + R[4]! * y + R[5]! * z;
        rays[w + 5] = R[6]! * x + R[7]! * y + R[8]! * z;
        w += 6;
      }
    }
  }
  return rays;
}
