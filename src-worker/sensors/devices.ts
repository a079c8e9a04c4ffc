/**
 * Device facts: the timing and the non-geometric parameters of the sensors Thicket knows,
 * and builders that turn per-laser calibration numbers into a SensorProfile. Used by the
 * calibration importers (calibration/) and by scripts/gen-profiles.mjs (the built-ins), so a
 * user's own VLP-16 calibration gets exactly the timing of the built-in VLP-16.
 *
 * Sources (see README "Sensor profiles" for the reasoning):
 * - VLP-16: 16 lasers fired 2.304 µs apart, one firing sequence every 55.296 µs, 24 sequences
 *   per data packet (12 blocks × 2), 100 m (Velodyne VLP-16 manual; docs/methods.md §5).
 * - HDL-32E: 32 lasers fired 1.152 µs apart, one sequence every 46.08 µs, 12 per packet;
 *   1–70 m, rectangular spot 3.3 × 0.7 mrad, signal cutoff 1 m (003 Table 2).
 * - HDL-64E: an upper block of 32 lasers (ids 0–31) and a lower block of 32 (ids 32–63); the
 *   upper block fires three times for each firing of the lower block (003 §3.5.2: three upper
 *   blocks, then one lower block). Upper sequence period 32 µs (31 250 /s, 003 eq. 7), lower
 *   96 µs: 1.333 M points/s in all, the data-sheet rate. At 10 Hz the upper block steps
 *   0.1152° and the lower 0.3456°. 1–100 m, 2 mm range resolution, rectangular 3.3 × 0.7 mrad,
 *   cutoff 1 m (003 Table 4).
 * - VLP-32C: 32 lasers fired in pairs (channels 2k and 2k+1 together) 2.304 µs apart, one
 *   sequence every 55.296 µs, 12 sequences per packet; 200 m, 4 mm range unit (Velodyne VLP-32C
 *   User Manual; the ROS velodyne driver's timing table). Spot assumed 3.0 × 1.5 mrad, the figure
 *   the VLS-128 User Manual (Appendix F, Table F-1) gives for the same generation of optics.
 * - VLS-128: 128 lasers fired 8 at a time in 16 firing groups 2.665 µs apart, with one group's
 *   time of maintenance after group 8, one sequence every 53.3 µs (3 sequences per packet: 12
 *   blocks of 32 channels); 245 m, 4 mm range unit, 3.0 × 1.5 mrad (Velodyne VLS-128 User
 *   Manual; the ROS velodyne driver's VLS128_CHANNEL_TDURATION / VLS128_SEQ_TDURATION).
 * - SICK LMS-291-S05: a mirror turning at 75 Hz, one pulse per 1/360 turn (37.04 µs); 1° scans
 *   at 75 Hz; 0.5° and 0.25° are interlaced over 2 and 4 turns, so complete scans come at 37.5
 *   and 18.75 Hz; 0.25° only with the 100° field. 80 m, circular 12.9 mrad, cutoff 1.6 m,
 *   first return (003 Table 3, §3.4.2).
 */
import type { LaserGroup, LaserSpec, SensorProfile } from '../../src-common/sensor-profile';
import { VLP32C_TIMING } from '../formats/velodyne/velodyne-packet';

export const DEG = Math.PI / 180;

/** Vehicle ← sensor: 2 m above the vehicle origin, level (docs/methods.md §7). */
export const DEFAULT_MOUNT: SensorProfile['mount'] = [0, 0, 2, 0, 0, 0, 1];

export const VLP16_TIMING = { laserSpacing: 2.304e-6, sequencePeriod: 55.296e-6, sequencesPerPacket: 24 } as const;
export const HDL32E_TIMING = { laserSpacing: 1.152e-6, sequencePeriod: 46.08e-6, sequencesPerPacket: 12 } as const;
/** VLP-32C: channel pairs 2.304 µs apart, one 55.296 µs sequence per block (one definition, shared with the packet decoder). */
export { VLP32C_TIMING };
/** VLS-128: firing groups of 8 lasers 2.665 µs apart, a maintenance slot after group 8, 53.3 µs per sequence. */
export const VLS128_TIMING = { groupSpacing: 2.665e-6, lasersPerGroup: 8, sequencePeriod: 53.3e-6, sequencesPerPacket: 3 } as const;
export const HDL64E_TIMING = {
  laserSpacing: 1e-6,
  upperPeriod: 32e-6,
  lowerPeriod: 96e-6,
  /** 9 upper + 3 lower sequences = the 12 blocks of a Velodyne data packet. */
  sequencesPerPacket: 9,
} as const;
/** A Velodyne-format calibration whose laser count matches no known model. */
export const GENERIC_TIMING = { sequencePeriod: 50e-6, sequencesPerPacket: 12 } as const;
export const LMS291_PULSE_PERIOD = 1 / (75 * 360);

/** One laser as a calibration file gives it (SI: radians, metres), in firing order. */
export interface CalibratedLaser {
  elevation: number;
  azimuthOffset: number;
  rangeOffset: number;
  verticalOffset: number;
  horizontalOffset: number;
}

export type VelodyneModel = 'vlp16' | 'vlp32c' | 'hdl32e' | 'hdl64e' | 'vls128' | 'generic';

export const VELODYNE_MODEL_NAMES: Record<VelodyneModel, string> = {
  vlp16: 'Velodyne VLP-16',
  vlp32c: 'Velodyne VLP-32C',
  hdl32e: 'Velodyne HDL-32E',
  hdl64e: 'Velodyne HDL-64E',
  vls128: 'Velodyne VLS-128',
  generic: 'generic spinning lidar',
};

/** Firing time of VLP-32C channel i: with its pair, ⌊i/2⌋ · 2.304 µs after the sequence starts. */
export function vlp32cLaserTime(i: number): number {
  return Math.floor(i / 2) * VLP32C_TIMING.pairSpacing;
}

/** Firing time of VLS-128 laser i: group g = ⌊i/8⌋ fires at (g + ⌊g/8⌋) · 2.665 µs (the slot after group 8 is maintenance). */
export function vls128LaserTime(i: number): number {
  const g = Math.floor(i / VLS128_TIMING.lasersPerGroup);
  return (g + Math.floor(g / 8)) * VLS128_TIMING.groupSpacing;
}

export interface ProfileMeta {
  id: string;
  name: string;
  description: string;
  source: string;
  builtin?: boolean;
}

function lasersAt(lasers: CalibratedLaser[], spacing: number): LaserSpec[] {
  return lasers.map((l, i) => ({ ...l, timeOffset: i * spacing }));
}

/**
 * Range and beam of each model (the sources above; the generic model: a VLP-16-like range and a
 * circular 3 mrad spot). Copied into each profile, which callers may then change.
 */
const VELODYNE_OPTICS: Record<VelodyneModel, Pick<SensorProfile, 'range' | 'beam'>> = {
  vlp16: { range: { min: 0.5, max: 100, resolution: 0.002, noiseSigma: 0.015 }, beam: { shape: 'rectangular', divergenceH: 3.0e-3, divergenceV: 1.5e-3 } },
  vlp32c: { range: { min: 1, max: 200, resolution: 0.004, noiseSigma: 0.03 }, beam: { shape: 'rectangular', divergenceH: 3.0e-3, divergenceV: 1.5e-3 } },
  hdl32e: { range: { min: 1, max: 70, resolution: 0.002, noiseSigma: 0.02 }, beam: { shape: 'rectangular', divergenceH: 3.3e-3, divergenceV: 0.7e-3 } },
  vls128: { range: { min: 1, max: 245, resolution: 0.004, noiseSigma: 0.03 }, beam: { shape: 'rectangular', divergenceH: 3.0e-3, divergenceV: 1.5e-3 } },
  hdl64e: { range: { min: 1, max: 100, resolution: 0.002, noiseSigma: 0.02 }, beam: { shape: 'rectangular', divergenceH: 3.3e-3, divergenceV: 0.7e-3 } },
  generic: { range: { min: 0.5, max: 100, resolution: 0.002, noiseSigma: 0.02 }, beam: { shape: 'circular', divergenceH: 3e-3, divergenceV: 3e-3 } },
};

/** The model's laser groups (firing offsets and periods) around the calibrated lasers, and its sequences per packet. */
function velodyneTiming(model: VelodyneModel, lasers: CalibratedLaser[]): { groups: LaserGroup[]; sequencesPerPacket: number } {
  switch (model) {
    case 'vlp16':
      return {
        groups: [{ name: 'lasers', lasers: lasersAt(lasers, VLP16_TIMING.laserSpacing), firingPeriod: VLP16_TIMING.sequencePeriod }],
        sequencesPerPacket: VLP16_TIMING.sequencesPerPacket,
      };
    case 'hdl32e':
      return {
        groups: [{ name: 'lasers', lasers: lasersAt(lasers, HDL32E_TIMING.laserSpacing), firingPeriod: HDL32E_TIMING.sequencePeriod }],
        sequencesPerPacket: HDL32E_TIMING.sequencesPerPacket,
      };
    case 'vlp32c':
      return {
        groups: [{ name: 'lasers', lasers: lasers.map((l, i) => ({ ...l, timeOffset: vlp32cLaserTime(i) })), firingPeriod: VLP32C_TIMING.sequencePeriod }],
        sequencesPerPacket: VLP32C_TIMING.sequencesPerPacket,
      };
    case 'vls128':
      return {
        groups: [{ name: 'lasers', lasers: lasers.map((l, i) => ({ ...l, timeOffset: vls128LaserTime(i) })), firingPeriod: VLS128_TIMING.sequencePeriod }],
        sequencesPerPacket: VLS128_TIMING.sequencesPerPacket,
      };
    case 'hdl64e':
      return {
        groups: [
          { name: 'upper', lasers: lasersAt(lasers.slice(0, 32), HDL64E_TIMING.laserSpacing), firingPeriod: HDL64E_TIMING.upperPeriod },
          { name: 'lower', lasers: lasersAt(lasers.slice(32), HDL64E_TIMING.laserSpacing), firingPeriod: HDL64E_TIMING.lowerPeriod },
        ],
        sequencesPerPacket: HDL64E_TIMING.sequencesPerPacket,
      };
    default: {
      const spacing = GENERIC_TIMING.sequencePeriod / Math.max(1, lasers.length);
      return {
        groups: [{ name: 'lasers', lasers: lasersAt(lasers, spacing), firingPeriod: GENERIC_TIMING.sequencePeriod }],
        sequencesPerPacket: GENERIC_TIMING.sequencesPerPacket,
      };
    }
  }
}

/** A Velodyne profile: the model's timing, range, beam and returns around the calibrated lasers. */
export function velodyneProfile(model: VelodyneModel, lasers: CalibratedLaser[], meta: ProfileMeta, opts: { rangeResolution?: number } = {}): SensorProfile {
  const { groups, sequencesPerPacket } = velodyneTiming(model, lasers);
  const optics = VELODYNE_OPTICS[model] ?? VELODYNE_OPTICS.generic;
  const range = { ...optics.range };
  const beam = { ...optics.beam };
  // Every model reports its strongest return; sub-returns within 1 m of the nearest merge (the sources above).
  const returns: SensorProfile['returns'] = { mode: 'strongest', signalCutoff: 1.0 };
  if (opts.rangeResolution !== undefined && opts.rangeResolution > 0 && opts.rangeResolution <= 1) range.resolution = opts.rangeResolution;
  return {
    id: meta.id,
    name: meta.name,
    description: meta.description,
    builtin: meta.builtin ?? false,
    kind: 'spinning',
    groups,
    rotationHz: 10,
    spin: 'cw',
    azimuthStart: 0,
    azimuthEnd: 2 * Math.PI,
    range,
    beam,
    returns,
    intensity: { model: 'lambertian', scale: 1, rangeFalloff: false },
    mount: [...DEFAULT_MOUNT],
    sequencesPerPacket,
    source: meta.source,
  };
}

/** LMS-291-S05 angular modes: field of view and angular resolution (degrees). */
export const LMS291_MODES = [
  { fovDeg: 180, resolutionDeg: 1 },
  { fovDeg: 180, resolutionDeg: 0.5 },
  { fovDeg: 100, resolutionDeg: 1 },
  { fovDeg: 100, resolutionDeg: 0.5 },
  { fovDeg: 100, resolutionDeg: 0.25 },
] as const;

/** 1° → '1', 0.5° → '05', 0.25° → '025' (ids allow only letters, digits and dashes). */
const resolutionTag = (deg: number) => String(deg).replace('.', '');

/** The SICK LMS-291-S05 in one angular mode (a planar profile: one group of one laser). */
export function lms291Profile(fovDeg: 180 | 100, resolutionDeg: 1 | 0.5 | 0.25): SensorProfile {
  const turnsPerScan = Math.round(1 / resolutionDeg); // 1, 2 or 4 mirror turns, interlaced
  const scanHz = 75 / turnsPerScan;
  const half = (fovDeg / 2) * DEG;
  const beams = Math.round(fovDeg / resolutionDeg) + 1;
  const sequencesPerScan = Math.round(360 / resolutionDeg);
  return {
    id: `lms291-${fovDeg}-${resolutionTag(resolutionDeg)}`,
    name: `SICK LMS-291-S05 ${fovDeg}° / ${resolutionDeg}°`,
    description:
      `Planar scanner, ${fovDeg}° field of view at ${resolutionDeg}° (${beams} beams per scan, ${scanHz} scans/s). ` +
      (turnsPerScan > 1
        ? `The device interlaces ${turnsPerScan} mirror turns at 75 Hz per scan; simulated as one sweep at ${scanHz} Hz with the same pulse rate. `
        : 'One mirror turn at 75 Hz per scan. ') +
      'Circular 12.9 mrad spot, 1.6 m signal cutoff, first return, 80 m (003 Table 3). Range noise and minimum range are assumptions.',
    builtin: true,
    kind: 'planar',
    groups: [
      {
        name: 'mirror',
        lasers: [{ elevation: 0, azimuthOffset: 0, timeOffset: 0, rangeOffset: 0, verticalOffset: 0, horizontalOffset: 0 }],
        firingPeriod: LMS291_PULSE_PERIOD,
      },
    ],
    rotationHz: scanHz,
    spin: 'ccw',
    azimuthStart: -half,
    azimuthEnd: half,
    range: { min: 0.1, max: 80, resolution: 0.01, noiseSigma: 0.01 },
    beam: { shape: 'circular', divergenceH: 12.9e-3, divergenceV: 12.9e-3 },
    returns: { mode: 'first', signalCutoff: 1.6 },
    intensity: { model: 'lambertian', scale: 1, rangeFalloff: false },
    mount: [...DEFAULT_MOUNT],
    // One output packet per complete scan, like the device's one telegram per scan.
    sequencesPerPacket: sequencesPerScan,
    source: '003 Table 3; SICK LMS-291-S05 data sheet',
  };
}
