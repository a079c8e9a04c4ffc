/**
 * A live drive's run, grown frame by frame from the `drive` events (docs/studies.md, "Live
 * drives"), and shown by the studies' own panel (StudyPanel.vue), which plays a StudyRunData at a
 * time. Each frame appends to growable arrays; `snapshot()` hands out a StudyRunData over what has
 * arrived. Pure, so the page and the tests agree on what a run looks like after n frames.
 */
import type { StudyLayout, StudyMount, StudyRunData, StudySensorResult } from '../../../src-main/api/contract';
import type { StudyLiveFrame } from '../../../src-common/study-results';

type Typed = Float32Array | Float64Array | Uint32Array | Uint8Array;

/** A typed array that doubles its storage as it grows; `view()` is the filled part. */
class Grow<T extends Typed> {
  private data: T;
  length = 0;
  constructor(private readonly make: (n: number) => T) {
    this.data = make(1024);
  }
  push(values: ArrayLike<number>): void {
    const need = this.length + values.length;
    if (need > this.data.length) {
      const next = this.make(Math.max(need, 2 * this.data.length));
      next.set(this.data.subarray(0, this.length) as never);
      this.data = next;
    }
    this.data.set(values as never, this.length);
    this.length = need;
  }
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

export interface LiveRunInfo {
  seq: number;
  profileId: string;
  mount: StudyMount;
}

export class LiveRun {
  private readonly frameTime = new Grow((n) => new Float64Array(n));
  private readonly poses = new Grow((n) => new Float64Array(n));
  private readonly frameStart = new Grow((n) => new Uint32Array(n));
  private readonly cell = new Grow((n) => new Uint32Array(n));
  private readonly cost = new Grow((n) => new Uint8Array(n));
  private readonly planFrame = new Grow((n) => new Uint32Array(n));
  private readonly planStart = new Grow((n) => new Uint32Array(n));
  private readonly planXY = new Grow((n) => new Float32Array(n));
  private readonly xyz = new Grow((n) => new Float32Array(n));
  private readonly pointFrame = new Grow((n) => new Uint32Array(n));
  private readonly classId = new Grow((n) => new Uint8Array(n));
  /** The vehicle at the end of the newest frame (t x y z yaw): the poses' last row. */
  private poseEnd: Float64Array = new Float64Array(0);
  /** The final metrics, once the drive's job has ended. */
  result: StudySensorResult | null = null;

  constructor(readonly info: LiveRunInfo) {}

  /** Frames received. */
  get frames(): number {
    return this.frameTime.length;
  }

  /** Simulated time up to which the run is known (s): the end of its newest frame. */
  get knownUntil(): number {
    return this.frames ? this.frameTime.view()[this.frames - 1]! : 0;
  }

  /** Appends a frame; frames must come in order (the worker posts them so; a gap is a bug worth seeing). */
  add(f: StudyLiveFrame): void {
    if (f.frame !== this.frames) throw new Error(`run ${this.info.seq}: frame ${f.frame} arrived after ${this.frames} frames`);
    this.frameTime.push([f.time]);
    this.poses.push(f.poseStart);
    this.poseEnd = f.poseEnd;
    this.frameStart.push([this.cell.length]);
    this.cell.push(f.riseCell);
    this.cost.push(f.riseCost);
    for (const p of f.plans) {
      this.planFrame.push([p.frame]);
      this.planStart.push([this.planXY.length / 2]);
      this.planXY.push(p.xy);
    }
    this.xyz.push(f.xyz);
    const frameOf = new Uint32Array(f.classId.length).fill(f.frame);
    this.pointFrame.push(frameOf);
    this.classId.push(f.classId);
  }

  /** The metrics while the run goes on: nothing ended yet (the panel shows the distance to the goal). */
  private provisional(): StudySensorResult {
    return {
      seq: this.info.seq,
      profile: this.info.profileId,
      mount: this.info.mount,
      cellsObserved: 0,
      pathLength: null,
      timeToGoal: null,
      collisions: 0,
      falseObstacles: 0,
      missedObstacles: 0,
      replans: 0,
      obstacles: 0,
      outcome: 'timeout',
      lethalCells: 0,
      scans: this.frames,
      points: this.xyz.length / 3,
      endTime: Number.POSITIVE_INFINITY,
      collidedWith: null,
    };
  }

  /** The run as the studies' panel reads it, over the frames received (copies: the panel may keep it). */
  snapshot(layout: StudyLayout, vehicle: { length: number; width: number }): { run: StudyRunData; result: StudySensorResult } {
    const poses = new Float64Array(this.poses.length + this.poseEnd.length);
    poses.set(this.poses.view());
    poses.set(this.poseEnd, this.poses.length);
    const planStart = new Uint32Array(this.planStart.length + 1);
    planStart.set(this.planStart.view());
    planStart[this.planStart.length] = this.planXY.length / 2;
    const result = this.result ?? this.provisional();
    return {
      result,
      run: {
        study: 0,
        seq: this.info.seq,
        metrics: result,
        layout,
        vehicle,
        frameTime: this.frameTime.view().slice(),
        poses,
        planFrame: this.planFrame.view().slice(),
        planStart,
        planXY: this.planXY.view().slice(),
        cloud: { total: this.xyz.length / 3, xyz: this.xyz.view().slice(), frame: this.pointFrame.view().slice(), classId: this.classId.view().slice() },
        costEvents: { frameStart: this.frameStart.view().slice(), cell: this.cell.view().slice(), cost: this.cost.view().slice() },
      },
    };
  }
}

/**
 * The drive's clock: simulated time advances at `pace` × real time (Infinity: as fast as the runs
 * arrive) but never past what every run still going has sent — so the panels stay on one clock,
 * and a slow simulation makes the clock wait rather than the panels disagree. A run that has ended
 * (its job is done) no longer holds the clock back, up to its own end.
 */
export function advanceClock(t: number, dtS: number, pace: number, runs: readonly { knownUntil: number; ended: boolean }[]): { t: number; waiting: boolean } {
  const going = runs.filter((r) => !r.ended);
  const limit = going.length ? Math.min(...going.map((r) => r.knownUntil)) : Math.max(0, ...runs.map((r) => r.knownUntil));
  const want = Number.isFinite(pace) ? t + dtS * pace : limit;
  return want > limit ? { t: Math.max(t, limit), waiting: going.length > 0 } : { t: want, waiting: false };
}
