/**
 * Linked cameras (the Evaluation page's side-by-side views): a camera moved by the user moves
 * the others; the follower's own late report of that write (Babylon reports a new view matrix
 * at its next frame) does not pull the leader back, even while the leader keeps moving; a
 * follower moved by the user leads in turn; unlinking stops it.
 */
import { describe, expect, it } from 'vitest';
import { linkCameras, sameState, type LinkableCamera, type OrbitState } from '../../../src-renderer/viewport/camera-link';

/** A camera that, like Babylon's, reports a change only when "rendered" after being moved. */
class FakeCamera implements LinkableCamera<OrbitState> {
  state: OrbitState = { alpha: 0, beta: 1, radius: 50, target: [0, 0, 0] };
  writes = 0;
  private dirty = false;
  private listeners: (() => void)[] = [];
  read(): OrbitState {
    return { ...this.state, target: [...this.state.target] };
  }
  write(s: OrbitState): void {
    this.writes++;
    this.state = { ...s, target: [...s.target] };
    this.dirty = true;
  }
  /** The user drags: the state changes. */
  move(patch: Partial<OrbitState>): void {
    this.state = { ...this.state, ...patch };
    this.dirty = true;
  }
  /** A frame: the view matrix is recomputed and, if it moved, listeners hear of it. */
  render(): void {
    if (!this.dirty) return;
    this.dirty = false;
    for (const l of [...this.listeners]) l();
  }
  onChange(l: () => void): () => void {
    this.listeners.push(l);
    return () => (this.listeners = this.listeners.filter((x) => x !== l));
  }
}

describe('linked cameras', () => {
  it('an orbit, pan or zoom of one camera moves the other to the same state', () => {
    const a = new FakeCamera(), b = new FakeCamera();
    linkCameras([a, b]);
    a.move({ alpha: 0.7, beta: 0.9 }); // orbit
    a.render();
    expect(b.state).toEqual(a.state);
    a.move({ target: [3, -2, 1] }); // pan
    a.render();
    a.move({ radius: 12.5 }); // zoom
    a.render();
    expect(b.state).toEqual({ alpha: 0.7, beta: 0.9, radius: 12.5, target: [3, -2, 1] });
  });

  it("the follower's late report of the link's own write does not pull a moving leader back", () => {
    const a = new FakeCamera(), b = new FakeCamera();
    linkCameras([a, b]);
    for (let k = 1; k <= 5; k++) {
      a.move({ alpha: 0.1 * k }); // the leader keeps turning (inertia) …
      a.render();
      b.render(); // … while the follower reports the state it was given a frame ago
    }
    a.move({ alpha: 0.6 });
    b.render(); // a stale echo arrives before the leader's next frame
    a.render();
    expect(a.state.alpha).toBeCloseTo(0.6, 12);
    expect(b.state.alpha).toBeCloseTo(0.6, 12);
    expect(a.writes).toBe(0); // the leader was never written
  });

  it('either camera leads; unlinking stops the following', () => {
    const a = new FakeCamera(), b = new FakeCamera();
    const unlink = linkCameras([a, b]);
    b.move({ radius: 20 });
    b.render();
    expect(a.state.radius).toBe(20);
    a.render(); // a's echo: nothing goes back to b
    expect(b.writes).toBe(0);
    unlink();
    a.move({ radius: 5 });
    a.render();
    expect(b.state.radius).toBe(20);
  });

  it('compares states relatively, not exactly', () => {
    const s: OrbitState = { alpha: 1, beta: 1, radius: 2000, target: [500000, 0, 0] };
    expect(sameState(s, { ...s, target: [500000 + 1e-6, 0, 0] })).toBe(true);
    expect(sameState(s, { ...s, alpha: 1.001 })).toBe(false);
    expect(sameState(s, { ...s, radius: NaN })).toBe(false);
  });
});
