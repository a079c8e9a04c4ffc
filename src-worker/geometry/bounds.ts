/** Axis-aligned bounds accumulated over points, without per-point allocation. */
export class BoundsAccumulator {
  min: [number, number, number] = [Infinity, Infinity, Infinity];
  max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  count = 0;

  add(x: number, y: number, z: number): void {
    if (x < this.min[0]) this.min[0] = x;
    if (y < this.min[1]) this.min[1] = y;
    if (z < this.min[2]) this.min[2] = z;
    if (x > this.max[0]) this.max[0] = x;
    if (y > this.max[1]) this.max[1] = y;
    if (z > this.max[2]) this.max[2] = z;
    this.count++;
  }

  merge(b: { min: readonly number[]; max: readonly number[] } | null): void {
    if (!b) return;
    this.add(b.min[0]!, b.min[1]!, b.min[2]!);
    this.add(b.max[0]!, b.max[1]!, b.max[2]!);
  }

  result(): { min: [number, number, number]; max: [number, number, number] } | null {
    return this.count === 0 ? null : { min: [...this.min], max: [...this.max] };
  }
}

// One-element views for stepping to the adjacent float32 exactly, through its bit pattern.
// (Subtracting a relative epsilon instead can land on a rounding tie next to a power of two and
// round back to the same value forever.)
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The float32 just below f (f a float32, not NaN). */
function nextDown(f: number): number {
  if (f === -Infinity) return f;
  if (f === 0) return -1.401298464324817e-45; // below ±0: the smallest negative subnormal
  f32[0] = f;
  u32[0] = f > 0 ? u32[0]! - 1 : u32[0]! + 1;
  return f32[0]!;
}

/** The float32 just above f (f a float32, not NaN). */
function nextUp(f: number): number {
  if (f === Infinity) return f;
  if (f === 0) return 1.401298464324817e-45;
  f32[0] = f;
  u32[0] = f > 0 ? u32[0]! + 1 : u32[0]! - 1;
  return f32[0]!;
}

/** Largest float32 value ≤ x (for conservative float32 box minima). */
export function float32Down(x: number): number {
  const f = Math.fround(x);
  return f > x ? nextDown(f) : f; // rounding to nearest is off by at most one float32 step
}

/** Smallest float32 value ≥ x (for conservative float32 box maxima). */
export function float32Up(x: number): number {
  const f = Math.fround(x);
  return f < x ? nextUp(f) : f;
}
