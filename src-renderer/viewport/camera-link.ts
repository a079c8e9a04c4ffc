/**
 * Cameras that move together: the Evaluation page's side-by-side views (real left, simulated
 * right) orbit, pan and zoom as one. Each view reports when its camera moved; the link copies
 * that camera's state to the others. A view's camera also "moves" when the link itself wrote
 * it (Babylon reports a new view matrix at the next frame), so each write is remembered and a
 * report that only echoes it is not passed on — otherwise a follower, reporting a frame late,
 * would pull the leader back while it still moves (inertia). Pure (no Babylon), unit-tested.
 */

/** One linked camera: its state now, setting it, and being told when it moved (returns an unsubscribe). */
export interface LinkableCamera<S> {
  read(): S;
  write(state: S): void;
  onChange(listener: () => void): () => void;
}

/** An orbit camera: angles (rad), distance and target, the target in Thicket's world frame. */
export interface OrbitState {
  alpha: number;
  beta: number;
  radius: number;
  target: [number, number, number];
}

/** A free (fly) camera: position in the world frame and its rotation (rad). */
export interface FlyState {
  position: [number, number, number];
  rotation: [number, number, number];
}

/** Flattened numbers of a state, for comparing two (any nesting of numbers and number arrays). */
function numbers(s: unknown, out: number[] = []): number[] {
  if (typeof s === 'number') out.push(s);
  else if (Array.isArray(s)) for (const v of s) numbers(v, out);
  else if (s && typeof s === 'object') for (const k of Object.keys(s).sort()) numbers((s as Record<string, unknown>)[k], out);
  return out;
}

/** Whether two states agree to `eps` relative (1 mm in a kilometre's framing; angles to 1e-9 rad-ish). */
export function sameState(a: unknown, b: unknown, eps = 1e-9): boolean {
  const x = numbers(a), y = numbers(b);
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    const u = x[i]!, v = y[i]!;
    if (!(Math.abs(u - v) <= eps * Math.max(1, Math.abs(u), Math.abs(v)))) return false;
  }
  return true;
}

/**
 * Links the cameras: whenever one moves by itself (the user), the others take its state.
 * Returns the function that undoes the link.
 */
export function linkCameras<S>(cameras: readonly LinkableCamera<S>[]): () => void {
  // What the link last wrote into each camera: a report of exactly that is the echo of our write.
  const written: (S | null)[] = cameras.map(() => null);
  const offs = cameras.map((cam, i) =>
    cam.onChange(() => {
      const state = cam.read();
      const echo = written[i];
      if (echo !== null && sameState(state, echo)) return;
      written[i] = null;
      cameras.forEach((other, j) => {
        if (j === i || sameState(other.read(), state)) return;
        written[j] = state;
        other.write(state);
      });
    }),
  );
  return () => offs.forEach((off) => off());
}
