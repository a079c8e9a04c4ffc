/**
 * A lidar's description: what the simulator fires and how the sensor turns what comes back
 * into returns. SI units inside (metres, radians, seconds); degrees only in files and the UI.
 * Sensor frame: x forward, y left, z up; azimuth counter-clockwise from x about z.
 *
 * Timing model: each laser group fires its lasers in a sequence every `firingPeriod` seconds
 * (laser i at `timeOffset` after the sequence starts); the head turns at `rotationHz`, so a
 * group's azimuth step is 2π · rotationHz · firingPeriod. The HDL-64E's lower block is a group
 * whose period is three times the upper block's. A planar scanner (LMS-291) is one group of one
 * laser whose firings outside [azimuthStart, azimuthEnd] are not emitted.
 */

export type BeamShape = 'circular' | 'rectangular' | 'elliptical';
export type ReturnMode = 'first' | 'last' | 'strongest' | 'strongest+last';
export type ProfileKind = 'spinning' | 'planar';
/** tx, ty, tz, qx, qy, qz, qw: vehicle ← sensor. */
export type Pose7 = [number, number, number, number, number, number, number];

export interface LaserSpec {
  /** Elevation above the sensor's x-y plane (rad). */
  elevation: number;
  /** Added to the head's encoder azimuth for this laser (rad). */
  azimuthOffset: number;
  /** Firing time within its group's sequence (s after the sequence starts). */
  timeOffset: number;
  /** Calibration corrections (m): added to the measured range; beam origin offsets. */
  rangeOffset: number;
  verticalOffset: number;
  horizontalOffset: number;
}

export interface LaserGroup {
  name: string;
  lasers: LaserSpec[];
  /** Seconds between successive firing sequences of this group. */
  firingPeriod: number;
}

export interface SensorProfile {
  /** Stable id: lowercase letters, digits and dashes (e.g. 'hdl64e'). */
  id: string;
  name: string;
  description: string;
  builtin: boolean;
  kind: ProfileKind;
  groups: LaserGroup[];
  /** Head revolutions (spinning) or mirror scans (planar) per second. */
  rotationHz: number;
  /**
   * Optional (absent = 'ccw'): which way the head or mirror turns, seen from above (+z).
   * 'ccw': the encoder azimuth grows with time from azimuthStart; 'cw' (Velodyne, Ouster):
   * it falls from azimuthEnd. Only the order in time of the firings changes, not their directions.
   */
  spin?: 'ccw' | 'cw';
  /** Emitted azimuth window (rad); a full spin is [0, 2π). */
  azimuthStart: number;
  azimuthEnd: number;
  range: {
    min: number;
    max: number;
    /** Quantisation of reported ranges (m), 0 = none. */
    resolution: number;
    /** Standard deviation of range noise (m). */
    noiseSigma: number;
    /**
     * Optional: the id of a learned noise model in the project (docs/methods.md §8). Set, every
     * simulation mode draws ranges and nulls from it instead of N(0, noiseSigma²).
     */
    noiseModel?: number;
  };
  beam: {
    shape: BeamShape;
    /** Full-angle divergences (rad), horizontal and vertical. */
    divergenceH: number;
    divergenceV: number;
  };
  returns: {
    mode: ReturnMode;
    /** Sub-returns within this distance of the nearest merge into one return (m). */
    signalCutoff: number;
  };
  intensity: {
    /** I = reflectance · scale · cos(incidence), optionally / r² (Lambertian, 003 §3.2). */
    model: 'lambertian';
    scale: number;
    rangeFalloff: boolean;
  };
  /** Vehicle ← sensor. */
  mount: Pose7;
  /** Firing sequences of the fastest group per output packet (Velodyne: 12 blocks ⇒ 12 or 6). */
  sequencesPerPacket: number;
  /** Where the per-laser numbers came from (calibration file name), for the UI. */
  source: string;
}

/** How a profile file says which format and version it is, and the units it writes. */
export const PROFILE_FILE_FORMAT = 'thicket-sensor-profile';
export const PROFILE_FILE_VERSION = 1;
export const FILE_UNITS = { angle: 'deg', time: 'ms', rate: 'Hz', length: 'm', divergence: 'mrad' } as const;

export const BEAM_SHAPES: readonly BeamShape[] = ['circular', 'rectangular', 'elliptical'];
export const RETURN_MODES: readonly ReturnMode[] = ['first', 'last', 'strongest', 'strongest+last'];
export const PROFILE_KINDS: readonly ProfileKind[] = ['spinning', 'planar'];

/** A laser as files hold it: LaserSpec's fields, angles in degrees and times in ms. */
export type ProfileFileLaser = LaserSpec;

/** A laser group as files hold it: LaserGroup's fields, the firing period in ms. */
export type ProfileFileGroup = LaserGroup;

/** A profile as files hold it (file units; see the header comment). */
export interface ProfileFile extends Omit<SensorProfile, 'builtin' | 'groups' | 'mount'> {
  format: typeof PROFILE_FILE_FORMAT;
  version: typeof PROFILE_FILE_VERSION;
  units: typeof FILE_UNITS;
  /** Vehicle ← sensor: translation (m) and roll, pitch, yaw (degrees; yaw about z, then pitch about y, then roll about x). */
  mount: { xyz: [number, number, number]; rpy: [number, number, number] };
  groups: ProfileFileGroup[];
}

/** One revolution's beams for the 3D view (decimated: every `stride`-th firing of each laser). */
export interface ProfilePattern {
  /** The profile's id (of the draft, for an unsaved profile). */
  id: string;
  /** Unit directions in the vehicle frame (the mount's rotation applied), 3 per ray. */
  directions: Float32Array;
  /** Laser index (0 … lasers-1) per ray. */
  ring: Uint16Array;
  /** Elevation (degrees) of each laser in the sensor frame, by ring. */
  ringElevationsDeg: number[];
  /** Sensor position on the vehicle (m): the mount's translation. */
  origin: [number, number, number];
  totalRays: number;
  stride: number;
  raysPerSecond: number;
  /** Azimuth step between successive firings of each laser group (degrees). */
  azimuthStepsDeg: number[];
  packetsPerRevolution: number;
  packetDurationS: number;
}
