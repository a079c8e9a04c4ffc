/**
 * Reading a stored study for display: one run's history (for a synced panel: frames, poses,
 * plans, decimated points, cost rises) and its costmap at a time (the rises replayed up to the
 * last scan that ended by then — O(rises), a few ms for a 400 × 400 grid).
 */
import { ApiError, type ParsedRequest, type StudyCostmap, type StudyRunData } from '../api/contract';
import { replayCostmap } from '../../src-common/costmap-history';
import type { StudyRunArrays } from '../../src-common/study-results';
import type { ProjectSession } from './project-session';
import { studyData } from './study-service';

/** A run's stored arrays: its history, and the report's PNG of the final costmap. */
type Arrays = StudyRunArrays & { png: Uint8Array };

export function readRunArray<K extends keyof Arrays>(session: ProjectSession, id: number, seq: number, name: K): Arrays[K] {
  const a = session.store.studies.readRunArray(id, seq, name);
  if (!a) throw new ApiError('not_found', `study ${id} has no run ${seq} (or its ${name} is missing): run the study first`);
  return a as unknown as Arrays[K];
}

function runResult(session: ProjectSession, id: number, seq: number) {
  const study = studyData(session, id);
  const metrics = study.results?.find((r) => r.seq === seq);
  if (!metrics) throw new ApiError('not_found', study.results ? `study ${id} has no run ${seq} (runs 0 … ${study.results.length - 1})` : `study ${id} has no results yet (state ${study.state})`);
  return { study, metrics };
}

export function loadStudyRun(session: ProjectSession, req: ParsedRequest<'studies.run'>): StudyRunData {
  const { study, metrics } = runResult(session, req.id, req.seq);
  const read = <K extends keyof Arrays>(name: K) => readRunArray(session, req.id, req.seq, name);
  const xyz = read('cloudXYZ'), frame = read('cloudFrame'), cls = read('cloudClass');
  const total = frame.length;
  const stride = req.cloudBudget > 0 ? Math.max(1, Math.ceil(total / req.cloudBudget)) : 0;
  const kept = stride ? Math.ceil(total / stride) : 0;
  const cloud = { total, xyz: new Float32Array(3 * kept), frame: new Uint32Array(kept), classId: new Uint8Array(kept) };
  for (let i = 0, k = 0; k < kept; i += stride, k++) {
    cloud.xyz.set(xyz.subarray(3 * i, 3 * i + 3), 3 * k);
    cloud.frame[k] = frame[i]!;
    cloud.classId[k] = cls[i]!;
  }
  return {
    study: req.id,
    seq: req.seq,
    metrics,
    layout: study.layout,
    vehicle: { length: study.definition.vehicle.length, width: study.definition.vehicle.width },
    frameTime: read('frameTime'),
    poses: read('poses'),
    planFrame: read('planFrame'),
    planStart: read('planStart'),
    planXY: read('planXY'),
    cloud,
    costEvents: req.events ? { frameStart: read('frameStart'), cell: read('eventCell'), cost: read('eventCost') } : null,
  };
}

export function loadStudyCostmap(session: ProjectSession, req: ParsedRequest<'studies.costmap'>): StudyCostmap {
  const { study } = runResult(session, req.id, req.seq);
  const g = study.layout.grid;
  const frameTime = readRunArray(session, req.id, req.seq, 'frameTime');
  let frames = frameTime.length;
  if (req.time !== undefined) {
    frames = 0;
    while (frames < frameTime.length && frameTime[frames]! <= req.time + 1e-9) frames++;
  }
  const cost =
    frames === frameTime.length
      ? readRunArray(session, req.id, req.seq, 'finalCost')
      : replayCostmap(g.width * g.height, readRunArray(session, req.id, req.seq, 'eventCell'), readRunArray(session, req.id, req.seq, 'eventCost'), readRunArray(session, req.id, req.seq, 'frameStart'), frames);
  return {
    study: req.id,
    seq: req.seq,
    frames,
    time: frames > 0 ? frameTime[frames - 1]! : 0,
    originX: g.originX,
    originY: g.originY,
    cellM: g.cellM,
    width: g.width,
    height: g.height,
    lethalCost: g.lethalCost,
    cost,
  };
}
