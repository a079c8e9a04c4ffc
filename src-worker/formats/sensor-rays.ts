/**
 * The rays of one decoded lidar packet in the sensor frame (x forward, y left, z up), as
 * struct-of-arrays: what every vendor's packet decoder gives (each adds its own per-ray fields)
 * and what the decoders copy into a ChunkBuilder.
 */
export interface SensorRays {
  count: number;
  /** Unit direction, 3 per ray. */
  dir: Float32Array<ArrayBuffer>;
  /** Metres from the sensor origin; NaN for a miss. */
  range: Float32Array<ArrayBuffer>;
  intensity: Float32Array<ArrayBuffer>;
  /** Firing time (s) after the packet's reference time (the vendor's decoder says which). */
  time: Float32Array<ArrayBuffer>;
  /** Laser (beam) index. */
  ring: Uint16Array<ArrayBuffer>;
  /** Return number: 0 = only or first, 1 = second. */
  ret: Uint8Array<ArrayBuffer>;
}

/** Zeroed arrays for n rays (count 0: the decoder fills and counts them). */
export function allocateSensorRays(n: number): SensorRays {
  return {
    count: 0,
    dir: new Float32Array(3 * n),
    range: new Float32Array(n),
    intensity: new Float32Array(n),
    time: new Float32Array(n),
    ring: new Uint16Array(n),
    ret: new Uint8Array(n),
  };
}
