/**
 * One sensor's run of a sensor study (003 §3.5.3, docs/methods.md §7).
 *
 * Closed loop, scan after scan (one revolution, or one LMS sweep, of T seconds):
 *   1. the vehicle follows the current plan for T seconds (PathFollower, 20 Hz control steps),
 *      stopping at the goal or at a collision of its footprint with a solid obstacle;
 *   2. the scan is simulated from the poses it actually drove (the engine's Simulator, physics or
 *      hybrid mode, each ray from the sensor pose at its own firing time), and every return is
 *      registered with that true pose into the cost grid (cost-grid.ts; heights above the
 *      scene's terrain, ground-height.ts);
 *   3. A* re-plans from the vehicle's cell when the map rose on the current path (at most every
 *      minReplanIntervalS) and at least every replanPeriodS.
 * It ends at the goal, at a collision, or at the time limit.
 *
 * Open loop (003's figure): the vehicle drives a fixed route (the scene's trail, or the straight
 * line to the goal) for `seconds`, mapping, without planning; then A* plans from the start to
 * the goal on the map it made.
 *
 * Deterministic: packet p of the run (scan k's packets are k·P … k·P + P − 1) draws from its own
 * RandomStream(seed, p) inside the Simulator, and the rest is plain arithmetic; a run is the same
 * on any worker.
 */
import { createTrajectory, applyPose } from '../geometry/trajectory';
import type { SceneQuery } from '../scene/scene-query';
import type { SensorProfile } from '../../src-common/sensor-profile';
import type { LearnedNoiseTables } from '../../src-common/noise-model';
import { packetRays, revolutionPattern } from '../sensors/scan-pattern';
import { Simulator } from '../simulate/simulate';
import { GridAStar } from './astar';
import { CostGrid, UNKNOWN, pointCost } from './cost-grid';
import { GrowableArray } from '../arrays/typed-arrays';
import { PathFollower, type VehicleState } from './follower';
import type { GroundField } from './ground-height';
import { cellTruth, countFalseObstacles, footprintHits, obstacleDistance, solidObstacles, type TruthObject } from './ground-truth';
import { PlanningMap } from './planning-map';
import type { StudyMetrics, StudyRunArrays, StudyRunResult, StudyRunSpec } from './study-types';
import type { StudyLiveFrame } from '../../src-common/study-results';
import { mountPose, vehiclePose } from './vehicle';

export interface StudyLoopDeps {
  scene: SceneQuery;
  ground: GroundField;
  profile: SensorProfile;
  /** The learned noise model the profile names (docs/methods.md §8), else the Gaussian range noise. */
  learnedNoise?: LearnedNoiseTables | null;
  objects: readonly TruthObject[];
  checkCancelled?: () => void;
  progress?: (fraction: number, message: string) => void;
  /** Called after each scan (and its re-plan) with what the history gained: a live drive's frames. */
  onFrame?: (frame: StudyLiveFrame) => void;
}

const CONTROL_DT = 0.05;
/** A re-plan that rejoins the old path within this distance of the vehicle is not a change of route (m). */
const SAME_ROUTE_AHEAD_M = 2;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function runStudyLoop(spec: StudyRunSpec, deps: StudyLoopDeps): StudyRunResult {
  const { profile, ground } = deps;
  const pattern = revolutionPattern(profile);
  const T = pattern.revolutionDuration, P = pattern.packetsPerRevolution;
  const scans = Math.max(1, Math.floor(spec.seconds / T + 1e-9));
  const g = spec.grid;
  const grid = new CostGrid(g);
  const pmap = new PlanningMap(grid, { lethalCost: g.lethalCost, unknownCost: g.unknownCost, ...spec.planner });
  const astar = new GridAStar(g.width, g.height);
  const flags = cellTruth(grid, deps.objects, g.hMax);
  const obstacles = solidObstacles(deps.objects, spec.vehicle.clearanceM);
  const byId = new Map<number, number[]>();
  obstacles.forEach((o, i) => byId.set(o.id, [...(byId.get(o.id) ?? []), i]));
  const marked = new Uint8Array(obstacles.length);
  const touched = new Set<number>();
  const mount = mountPose(spec.mount);
  const v = spec.vehicle;
  const hl = v.length / 2, hw = v.width / 2;
  const open = spec.loop === 'open';

  const state: VehicleState = { x: spec.start[0], y: spec.start[1], yaw: spec.startYaw };
  const follower = new PathFollower(v);
  const [gx, gy] = spec.goal;
  const goalCell = grid.cellOf(gx, gy);

  // history
  const frameTime = new GrowableArray(Float64Array), frameStart = new GrowableArray(Uint32Array);
  const eventCell = new GrowableArray(Uint32Array), eventCost = new GrowableArray(Uint8Array);
  const poses = new GrowableArray(Float64Array);
  const planFrame = new GrowableArray(Uint32Array), planStart = new GrowableArray(Uint32Array), planXY = new GrowableArray(Float32Array);
  const cloudXYZ = new GrowableArray(Float32Array), cloudFrame = new GrowableArray(Uint32Array), cloudClass = new GrowableArray(Uint8Array);
  const quota = spec.cloudBudget > 0 ? Math.ceil(spec.cloudBudget / scans) : 0;

  // planning state
  const onPath = new Uint32Array(grid.cells);
  let planId = 0, lastPlanT = 0, dirty = false, replans = 0;
  let pathCells: Int32Array | null = null;

  const plan = (frame: number, fromX: number, fromY: number): Int32Array | null => {
    const s = grid.cellOf(fromX, fromY);
    const r = s >= 0 && goalCell >= 0 ? astar.plan(pmap.mult, s, goalCell, g.cellM) : null;
    planId++;
    planFrame.push(frame);
    planStart.push(planXY.length / 2);
    if (!r) return null;
    for (let i = 0; i < r.cells.length; i++) onPath[r.cells[i]!] = planId;
    const xy = pathPolyline(grid, r.cells, fromX, fromY, gx, gy);
    planXY.pushAll(xy);
    return r.cells;
  };
  const follow = (cells: Int32Array | null) => {
    if (!cells) return follower.setPath(null);
    const s = planStart.last(), n = planXY.length / 2 - s;
    follower.setPath(Float64Array.from(planXY.view().subarray(2 * s, 2 * (s + n))));
  };

  // The plans a live frame has not yet carried (plans made from planSent on).
  let planSent = 0;
  const takePlans = (): StudyLiveFrame['plans'] => {
    const out: StudyLiveFrame['plans'] = [];
    const starts = planStart.view(), xy = planXY.view(), fr = planFrame.view();
    for (let p = planSent; p < starts.length; p++) {
      const end = p + 1 < starts.length ? starts[p + 1]! : xy.length / 2;
      out.push({ frame: fr[p]!, xy: xy.slice(2 * starts[p]!, 2 * end) });
    }
    planSent = starts.length;
    return out;
  };
  const route = open ? (spec.route && spec.route.length >= 4 ? spec.route : [...spec.start, ...spec.goal]) : null;
  const routeEnd: [number, number] | null = route ? [route[route.length - 2]!, route[route.length - 1]!] : null;
  if (open) {
    follower.setPath(Float64Array.from(route!));
  } else {
    pathCells = plan(0, state.x, state.y);
    follow(pathCells);
  }

  let timeToGoal: number | null = null, collidedWith: number | null = null, stopped = false, driven = 0, points = 0;
  const nSub = Math.max(1, Math.ceil(T / CONTROL_DT - 1e-9)), dt = T / nSub;
  const times = new Float64Array(nSub + 1), trajPoses = new Float64Array(7 * (nSub + 1));
  const world = new Float64Array(3);
  let t = 0, frames = 0;

  for (let k = 0; k < scans; k++) {
    deps.checkCancelled?.();
    const t0 = k * T;
    poses.pushAll([t0, state.x, state.y, ground.heightAt(state.x, state.y), state.yaw]);
    const cloudMark = cloudFrame.length;
    // 1. drive for one scan
    for (let i = 0; i <= nSub; i++) {
      if (i > 0 && !stopped) {
        driven += follower.step(state, dt);
        const ti = t0 + i * dt;
        if (timeToGoal === null && Math.hypot(state.x - gx, state.y - gy) <= spec.planner.goalToleranceM) {
          timeToGoal = ti;
          if (!open) stopped = true;
        }
        for (const o of obstacles) {
          if (!footprintHits(o, state.x, state.y, state.yaw, hl, hw)) continue;
          touched.add(o.id);
          if (!open && collidedWith === null) {
            collidedWith = o.id;
            stopped = true;
          }
        }
        if (open && routeEnd && Math.hypot(state.x - routeEnd[0], state.y - routeEnd[1]) <= 0.25) stopped = true;
      }
      times[i] = t0 + i * dt;
      vehiclePose(state.x, state.y, state.yaw, ground, v, trajPoses, 7 * i);
    }
    // 2. simulate the scan from the driven poses and register it
    const sim = new Simulator({
      scene: deps.scene,
      profile,
      rays: (p) => packetRays(pattern, p),
      trajectory: createTrajectory(times, trajPoses),
      mount,
      seed: spec.seed,
      mode: spec.simulation,
      learnedNoise: deps.learnedNoise ?? null,
      ...(spec.simulation === 'hybrid' ? { options: { rangeSampler: 'along-ray' as const } } : {}),
    });
    const chunk = sim.simulatePackets(k * P, P);
    const range = chunk.rayRange, dir = chunk.rayDir, obj = chunk.rayObject;
    let hits = 0;
    for (let i = 0; i < chunk.rayCount; i++) if (range[i]! === range[i]!) hits++;
    const stride = quota > 0 ? Math.max(1, Math.ceil(hits / quota)) : 0;
    let h = 0;
    for (let p = 0; p < chunk.packetCount; p++) {
      for (let i = chunk.rayStart[p]!; i < chunk.rayStart[p + 1]!; i++) {
        const r = range[i]!;
        if (r !== r) continue;
        applyPose(chunk.packetPose, 7 * p, r * dir[3 * i]!, r * dir[3 * i + 1]!, r * dir[3 * i + 2]!, world, 0);
        const wx = world[0]!, wy = world[1]!, wz = world[2]!;
        if (stride > 0 && h++ % stride === 0) {
          cloudXYZ.pushAll([wx, wy, wz]);
          cloudFrame.push(k);
          cloudClass.push(chunk.rayClass[i]!);
        }
        const cell = grid.cellOf(wx, wy);
        if (cell < 0) continue;
        grid.raise(cell, pointCost(wz - ground.heightAt(wx, wy), g.hMax));
        points++;
        const id = obj[i]!;
        const hit = id ? byId.get(id) : undefined;
        if (hit) for (const oi of hit) if (!marked[oi] && obstacleDistance(obstacles[oi]!, wx, wy) <= g.cellM) marked[oi] = 1;
      }
    }
    const changes = grid.takeChanges();
    frameStart.push(eventCell.length);
    for (let i = 0; i < changes.length; i++) {
      eventCell.push(changes[i]!);
      eventCost.push(grid.cost[changes[i]!]!);
    }
    pmap.update(changes, (c) => {
      if (onPath[c] === planId) dirty = true;
    });
    t = t0 + T;
    frameTime.push(t);
    frames = k + 1;
    deps.progress?.(frames / scans, `${profile.id}: ${t.toFixed(1)} of ${(scans * T).toFixed(1)} s`);
    const last = stopped && !open;
    // 3. re-plan (not after the last scan)
    if (!open && !last) {
      const since = t - lastPlanT;
      if ((dirty && since >= spec.planner.minReplanIntervalS - 1e-9) || since >= spec.planner.replanPeriodS - 1e-9 || (!pathCells && since >= spec.planner.minReplanIntervalS - 1e-9)) {
        const next = plan(frames, state.x, state.y);
        if (pathChanged(pathCells, next, Math.ceil(SAME_ROUTE_AHEAD_M / g.cellM))) replans++;
        pathCells = next;
        follow(next);
        lastPlanT = t;
        dirty = false;
      }
    }
    if (deps.onFrame) {
      const rises = frameStart.last();
      deps.onFrame({
        frame: k,
        time: t,
        poseStart: poses.view().slice(poses.length - 5),
        poseEnd: Float64Array.from([t, state.x, state.y, ground.heightAt(state.x, state.y), state.yaw]),
        riseCell: eventCell.view().slice(rises),
        riseCost: eventCost.view().slice(rises),
        plans: takePlans(),
        xyz: cloudXYZ.view().slice(3 * cloudMark),
        classId: cloudClass.view().slice(cloudMark),
      });
    }
    if (last) break;
  }
  poses.pushAll([t, state.x, state.y, ground.heightAt(state.x, state.y), state.yaw]);

  let pathLength: number | null = driven;
  if (open) {
    const cells = plan(frames, spec.start[0], spec.start[1]);
    pathLength = cells ? polylineLength(planXY.view().subarray(2 * planStart.last())) : null;
  }
  // obstacles near the track, and which of them the map never got a return from
  let obstaclesNear = 0, missed = 0;
  const track = poses.view();
  obstacles.forEach((o, i) => {
    let near = false;
    for (let r = 0; r < track.length && !near; r += 5) near = obstacleDistance(o, track[r + 1]!, track[r + 2]!) <= spec.planner.relevanceM;
    if (!near) return;
    obstaclesNear++;
    if (!marked[i]) missed++;
  });
  let lethalCells = 0;
  for (let c = 0; c < grid.cells; c++) if (grid.cost[c] !== UNKNOWN && grid.cost[c]! >= g.lethalCost) lethalCells++;

  const metrics: StudyMetrics = {
    cellsObserved: grid.observedCount(),
    pathLength: pathLength === null ? null : round3(pathLength),
    timeToGoal: timeToGoal === null ? null : round3(timeToGoal),
    collisions: open ? touched.size : collidedWith === null ? 0 : 1,
    falseObstacles: countFalseObstacles(grid, flags, g.lethalCost),
    missedObstacles: missed,
    obstacles: obstaclesNear,
    replans,
    outcome: collidedWith !== null ? 'collision' : timeToGoal !== null ? 'goal' : 'timeout',
    lethalCells,
    scans: frames,
    points,
    endTime: round3(t),
    collidedWith,
  };
  planStart.push(planXY.length / 2);
  const arrays: StudyRunArrays = {
    frameTime: frameTime.finish(),
    frameStart: frameStart.finish(),
    eventCell: eventCell.finish(),
    eventCost: eventCost.finish(),
    poses: poses.finish(),
    planFrame: planFrame.finish(),
    planStart: planStart.finish(),
    planXY: planXY.finish(),
    cloudXYZ: cloudXYZ.finish(),
    cloudFrame: cloudFrame.finish(),
    cloudClass: cloudClass.finish(),
    finalCost: grid.cost.slice(),
  };
  return { seq: spec.seq, profileId: profile.id, metrics, arrays };
}

/** The cell path as a polyline: from (fromX, fromY), through the cells where the step direction changes, to the goal. */
export function pathPolyline(grid: CostGrid, cells: Int32Array, fromX: number, fromY: number, gx: number, gy: number): number[] {
  const xy = [fromX, fromY];
  const W = grid.spec.width;
  for (let i = 1; i < cells.length - 1; i++) {
    const a = cells[i - 1]!, b = cells[i]!, c = cells[i + 1]!;
    if (b - a === c - b && Math.abs((b % W) - (a % W)) <= 1) continue; // straight on
    xy.push(grid.centreX(b), grid.centreY(b));
  }
  xy.push(gx, gy);
  return xy;
}

export function polylineLength(xy: ArrayLike<number>): number {
  let s = 0;
  for (let i = 2; i + 1 < xy.length; i += 2) s += Math.hypot(xy[i]! - xy[i - 2]!, xy[i + 1]! - xy[i - 1]!);
  return s;
}

/**
 * Whether `next` takes another route than `prev`: from its cell `skip` steps on (the vehicle,
 * cutting corners, is rarely on prev's cells itself) it must run along the rest of prev exactly.
 */
export function pathChanged(prev: Int32Array | null, next: Int32Array | null, skip = 0): boolean {
  if (!prev || !next) return prev !== next;
  const m = Math.min(next.length - 1, skip);
  const j = prev.indexOf(next[m]!);
  if (j < 0 || prev.length - j !== next.length - m) return true;
  for (let i = m; i < next.length; i++) if (prev[j + i - m] !== next[i]) return true;
  return false;
}
