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

/** Largest float32 value ≤ x (for conservative float32 box minima). */
export function float32Down(x: number): number {
  let f = Math.fround(x);
  while (f > x) f = Math.fround(f - Math.max(Math.abs(f) * 5.960464477539063e-8, 1e-38));
  return f;
}

/** Smallest float32 value ≥ x (for conservative float32 box maxima). */
export function float32Up(x: number): number {
  let f = Math.fround(x);
  while (f < x) f = Math.fround(f + Math.max(Math.abs(f) * 5.960464477539063e-8, 1e-38));
  return f;
}
