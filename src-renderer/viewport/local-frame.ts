/**
 * Thicket world → a view's Babylon frame: re-centred on the shown cloud (float32 GPU buffers keep
 * centimetres near the camera even in map coordinates) and (x, y, z) → (x, z, y), which turns
 * right-handed z-up into Babylon's left-handed y-up without mirroring (see point-stage.ts).
 */
export type Centre = readonly [number, number, number];

/** x,y,z triples (world) → Babylon-local triples. */
export function toLocal(xyz: ArrayLike<number>, centre: Centre, out = new Float32Array(xyz.length - (xyz.length % 3))): Float32Array {
  for (let o = 0; o + 2 < xyz.length; o += 3) {
    out[o] = xyz[o]! - centre[0];
    out[o + 1] = xyz[o + 2]! - centre[2];
    out[o + 2] = xyz[o + 1]! - centre[1];
  }
  return out;
}
