/**
 * Labelling a drive log (docs/labeling.md): the class list, a log's returns with their labels
 * (the label-cloud task), saving versions, comparing two, automatic proposals as a job, and label
 * files in and out. The store keeps versions per ray of the log (labels-repository.ts); the
 * renderer works per point (return), so the host keeps each log's point → ray map from its last
 * label cloud.
 */
import { readFileSync, writeFileSync, existsSync, lstatSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { ApiError, type AnnotationEntry, type LabelClass, type LabelCloud, type LabelComparison, type LabelFormat, type LabelVersionInfo, type ParsedRequest } from '../api/contract';
import { mergeLabelClasses } from '../../src-common/label-classes';
import { chunkBuffers } from '../../src-common/packets';
import type { LabelCloudInput, LabelCloudOutput } from '../../src-worker/tasks/label-cloud';
import type { LabelProposeInput, LabelProposeOutput } from '../../src-worker/tasks/label-propose';
import type { RunningJob } from '../jobs/job-runner';
import type { ProjectSession } from './project-session';
import type { EventBus } from './event-bus';
import { readInTurns } from './chunk-server';
import { checkSideFile, readSideFile, CALIBRATION_FILE, type SideFileKind } from './side-file';
import { BUILTIN_CLASS_MAPS, parseClassMap, parseKittiCalibration, readSemanticKittiLabels, readThicketLabels, writeSemanticKittiLabels, writeThicketLabels, type ClassMap } from './label-files';
import { kittiObjectsIn, kittiObjectsOut } from './kitti-object-labels';

/** A `.label` of a 10-million-ray log is 40 MB; the JSON of one base64, ~70 MB. */
const LABEL_FILE: SideFileKind = { what: 'label file', maxBytes: 512 * 1024 * 1024 };

export function labelClasses(session: ProjectSession): LabelClass[] {
  return mergeLabelClasses(session.store.labels.classRows());
}

export function saveLabelClasses(session: ProjectSession, classes: readonly LabelClass[]): LabelClass[] {
  const seen = new Set<number>();
  for (const c of classes) {
    if (seen.has(c.id)) throw new ApiError('bad_input', `class id ${c.id} is listed twice`);
    seen.add(c.id);
  }
  const names = new Set<string>();
  for (const c of mergeLabelClasses(classes)) {
    const key = c.name.toLowerCase();
    if (names.has(key)) throw new ApiError('bad_input', `two classes are named "${c.name}"`);
    names.add(key);
  }
  session.store.labels.saveClassRows(classes);
  return labelClasses(session);
}

interface PointMap {
  createdAt: string;
  rays: number;
  rayIndex: Uint32Array;
}

const pointMaps = new WeakMap<ProjectSession, Map<number, PointMap>>();

function requireLog(session: ProjectSession, logId: number) {
  const log = session.store.logs.get(logId);
  if (!log) throw new ApiError('not_found', `no drive log ${logId} in this project`);
  return log;
}

async function runLabelCloud(session: ProjectSession, logId: number, rays: LabelCloudInput['rays']): Promise<LabelCloudOutput> {
  const log = requireLog(session, logId);
  const chunks = await readInTurns(session.store.logs.chunks(logId));
  const input: LabelCloudInput = { chunks, rays };
  const { outputs } = await session.runner.runTransient('label-cloud', input, chunks.flatMap(chunkBuffers));
  const cloud = outputs.get('cloud') as LabelCloudOutput;
  let maps = pointMaps.get(session);
  if (!maps) pointMaps.set(session, (maps = new Map()));
  maps.set(logId, { createdAt: log.createdAt, rays: cloud.rays, rayIndex: cloud.rayIndex.slice() });
  return cloud;
}

/** The log's point → ray map: from the last label cloud, or read again. */
async function pointMap(session: ProjectSession, logId: number): Promise<PointMap> {
  const log = requireLog(session, logId);
  const m = pointMaps.get(session)?.get(logId);
  if (m && m.createdAt === log.createdAt && m.rays === session.store.labels.rayLayout(logId).rays) return m;
  await runLabelCloud(session, logId, null);
  return pointMaps.get(session)!.get(logId)!;
}

export async function loadLabelCloud(session: ProjectSession, logId: number, version?: number): Promise<LabelCloud> {
  requireLog(session, logId);
  const v = version !== undefined ? session.store.labels.read(logId, version) : null;
  if (version !== undefined && !v) throw new ApiError('not_found', `drive log ${logId} has no label version ${version}`);
  // The chunks already carry the newest version; an older one is laid over them.
  const latest = session.store.labels.latest(logId);
  const cloud = await runLabelCloud(session, logId, v ? { rayClass: v.rayClass, rayObject: v.rayObject, confidence: v.confidence } : null);
  const shown = v ?? (latest ? session.store.labels.read(logId, latest.version) : null);
  if (shown?.confidence && !v) {
    for (let i = 0; i < cloud.points; i++) cloud.confidence[i] = shown.confidence[cloud.rayIndex[i]!]!;
  }
  const entries = shown ? shown.entries : (session.store.annotations.list(logId).at(-1) ? session.store.annotations.read(session.store.annotations.list(logId).at(-1)!.id)!.entries : []);
  return {
    logId, version: shown?.info.version ?? null, points: cloud.points, positions: cloud.positions, origin: cloud.origin,
    rayIndex: cloud.rayIndex, packet: cloud.packet, classes: cloud.classes, instances: cloud.instances, confidence: cloud.confidence,
    heightAboveGround: cloud.heightAboveGround, sweepStart: cloud.sweepStart, entries,
  };
}

/** Per-ray arrays from per-point ones: rays that are not points keep the newest version's labels (else 0). */
function raysFromPoints(session: ProjectSession, logId: number, map: PointMap, classes: Uint8Array, instances: Uint32Array): { rayClass: Uint8Array<ArrayBuffer>; rayObject: Uint32Array<ArrayBuffer>; hit: Uint8Array } {
  if (classes.length !== map.rayIndex.length || instances.length !== map.rayIndex.length) {
    throw new ApiError('bad_input', `labels of drive log ${logId}: ${classes.length} classes and ${instances.length} objects for its ${map.rayIndex.length} returns`);
  }
  const latest = session.store.labels.latest(logId);
  const base = latest ? session.store.labels.read(logId, latest.version)! : null;
  const rayClass = base ? base.rayClass.slice() : new Uint8Array(map.rays);
  const rayObject = base ? base.rayObject.slice() : new Uint32Array(map.rays);
  const hit = new Uint8Array(map.rays);
  map.rayIndex.forEach((ray, k) => {
    rayClass[ray] = classes[k]!;
    rayObject[ray] = instances[k]!;
    hit[ray] = 1;
  });
  return { rayClass, rayObject, hit };
}

function checkClassesKnown(session: ProjectSession, rayClass: Uint8Array, where: string): void {
  const known = new Set(labelClasses(session).map((c) => c.id));
  for (let i = 0; i < rayClass.length; i++) {
    if (!known.has(rayClass[i]!)) throw new ApiError('bad_input', `${where}: class ${rayClass[i]} (ray ${i}) is not in the project's class list`);
  }
}

export async function saveLabels(session: ProjectSession, events: EventBus, req: ParsedRequest<'labels.save'>): Promise<LabelVersionInfo> {
  const map = await pointMap(session, req.logId);
  const { rayClass, rayObject, hit } = raysFromPoints(session, req.logId, map, req.classes, req.instances);
  checkClassesKnown(session, rayClass, `labels of drive log ${req.logId}`);
  const info = session.store.labels.save(req.logId, req.baseVersion, {
    source: 'edit', author: req.author, note: req.note, entries: req.entries as unknown as AnnotationEntry[], rayClass, rayObject, confidence: null, hit,
  });
  events.emit({ type: 'project', entity: 'driveLogs', id: req.logId });
  return info;
}

export async function compareLabels(session: ProjectSession, logId: number, a: number, b: number): Promise<LabelComparison> {
  const va = session.store.labels.read(logId, a), vb = session.store.labels.read(logId, b);
  if (!va || !vb) throw new ApiError('not_found', `drive log ${logId} has no label version ${!va ? a : b}`);
  const map = await pointMap(session, logId);
  const inA = new Map<number, number>(), inB = new Map<number, number>(), both = new Map<number, number>();
  let classChanged = 0, objectChanged = 0;
  for (const ray of map.rayIndex) {
    const ca = va.rayClass[ray]!, cb = vb.rayClass[ray]!;
    inA.set(ca, (inA.get(ca) ?? 0) + 1);
    inB.set(cb, (inB.get(cb) ?? 0) + 1);
    if (ca === cb) both.set(ca, (both.get(ca) ?? 0) + 1);
    else classChanged++;
    if (va.rayObject[ray] !== vb.rayObject[ray]) objectChanged++;
  }
  const classes = [...new Set([...inA.keys(), ...inB.keys()])].sort((x, y) => x - y);
  const points = map.rayIndex.length;
  return {
    a, b, points, classChanged, objectChanged,
    perClass: classes.map((c) => {
      const na = inA.get(c) ?? 0, nb = inB.get(c) ?? 0, n = both.get(c) ?? 0;
      return { class: c, a: na, b: nb, both: n, agreement: na + nb - n > 0 ? n / (na + nb - n) : 1 };
    }),
    overallAgreement: points > 0 ? (points - classChanged) / points : 1,
  };
}

export async function startPropose(session: ProjectSession, events: EventBus, logId: number, minHeight: number): Promise<RunningJob> {
  const log = requireLog(session, logId);
  const chunks = await readInTurns(session.store.logs.chunks(logId));
  const base = session.store.labels.latest(logId)?.version ?? null;
  let labels: LabelProposeOutput | null = null;
  const input: LabelProposeInput = { chunks, minHeight };
  return session.runner.submit({
    kind: 'label-propose',
    params: { logId, minHeight },
    task: 'label-propose',
    input,
    transfer: chunks.flatMap(chunkBuffers),
    onMessage: (m) => {
      if (m.type === 'output' && m.name === 'labels') labels = m.value as LabelProposeOutput;
    },
    onSuccess: () => {
      if (!labels) throw new Error('the proposal task sent no labels');
      const l: LabelProposeOutput = labels;
      const info = session.store.labels.save(logId, base, {
        source: 'auto', author: 'automatic proposal', note: `ground within ${minHeight} m; ${l.objects} clusters classed by size`,
        entries: l.entries as unknown as AnnotationEntry[], rayClass: l.rayClass, rayObject: l.rayObject, confidence: l.confidence, hit: l.hit,
      });
      events.emit({ type: 'project', entity: 'driveLogs', id: log.id });
      return { logId, version: info.version, ground: l.ground, objects: l.objects, unclassified: l.unclassified };
    },
  });
}

function formatOf(path: string, format: LabelFormat | undefined): LabelFormat {
  if (format) return format;
  const ext = extname(path).toLowerCase();
  if (ext === '.label') return 'semantic-kitti';
  if (ext === '.json') return 'thicket-json';
  if (ext === '.txt') return 'kitti-object';
  throw new ApiError('bad_input', `${path}: cannot tell the label format from the extension "${ext}": give the format (semantic-kitti, kitti-object or thicket-json)`);
}

function projectPath(session: ProjectSession, path: string): string {
  return isAbsolute(path) ? path : resolve(dirname(session.path), path);
}

export async function importLabels(session: ProjectSession, events: EventBus, req: ParsedRequest<'labels.import'>): Promise<LabelVersionInfo> {
  const log = requireLog(session, req.logId);
  const path = projectPath(session, req.path);
  const format = formatOf(path, req.format);
  checkSideFile(path, LABEL_FILE);
  if (format === 'kitti-object') {
    if (!req.calibration) throw new ApiError('bad_input', `${path}: KITTI object boxes are in the camera frame: give the scan's calibration file (Tr_velo_to_cam, R0_rect)`);
    const calib = parseKittiCalibration(readSideFile(projectPath(session, req.calibration), CALIBRATION_FILE).text, req.calibration);
    const cloud = await runLabelCloud(session, log.id, null);
    const k = kittiObjectsIn(session, log.id, cloud, readSideFile(path, LABEL_FILE).text, calib, labelClasses(session), path);
    const info = session.store.labels.save(log.id, session.store.labels.latest(log.id)?.version ?? null, {
      source: 'import', author: '', note: `${path}: ${k.entries.length} boxes${k.unknownTypes.length ? `; types not in the class list, left class 0: ${k.unknownTypes.join(', ')}` : ''}`,
      entries: k.entries, rayClass: k.rayClass, rayObject: k.rayObject, confidence: null, hit: k.hit,
    });
    events.emit({ type: 'project', entity: 'driveLogs', id: log.id });
    return info;
  }
  const layout = session.store.labels.rayLayout(log.id);
  const map = await pointMap(session, log.id);
  let rayClass: Uint8Array<ArrayBuffer>, rayObject: Uint32Array<ArrayBuffer>, entries: AnnotationEntry[] = [], note: string;
  if (format === 'semantic-kitti') {
    let classMap: ClassMap | null = null;
    if (req.classMap) {
      const f = readSideFile(projectPath(session, req.classMap), CALIBRATION_FILE);
      classMap = parseClassMap(f.text, labelClasses(session), req.classMap);
    } else if (req.classMapName) {
      classMap = BUILTIN_CLASS_MAPS[req.classMapName];
    }
    const read = readSemanticKittiLabels(readFileSync(path), classMap, path);
    note = `${path}${req.classMapName ? ` (${req.classMapName} classes)` : req.classMap ? ` (classes by ${req.classMap})` : ''}${read.unmapped ? `; ${read.unmapped} labels of classes the map does not name left unlabelled` : ''}`;
    if (read.rayClass.length === layout.rays) {
      ({ rayClass, rayObject } = read);
    } else if (read.rayClass.length === map.rayIndex.length) {
      ({ rayClass, rayObject } = raysFromPoints(session, log.id, map, read.rayClass, read.rayObject));
    } else {
      throw new ApiError('bad_input', `${path}: ${read.rayClass.length} labels; drive log ${log.id} has ${layout.rays} rays and ${map.rayIndex.length} returns — the file is of another scan`);
    }
  } else {
    const read = readThicketLabels(readFileSync(path, 'utf8'), path);
    if (read.rayClass.length !== layout.rays) throw new ApiError('bad_input', `${path}: labels for ${read.rayClass.length} rays; drive log ${log.id} has ${layout.rays}`);
    ({ rayClass, rayObject, entries } = read);
    note = path;
  }
  checkClassesKnown(session, rayClass, path);
  const hit = new Uint8Array(layout.rays);
  for (const ray of map.rayIndex) hit[ray] = 1;
  const info = session.store.labels.save(log.id, session.store.labels.latest(log.id)?.version ?? null, {
    source: 'import', author: '', note, entries, rayClass, rayObject, confidence: null, hit,
  });
  events.emit({ type: 'project', entity: 'driveLogs', id: log.id });
  return info;
}

export async function exportLabels(session: ProjectSession, req: ParsedRequest<'labels.export'>): Promise<{ path: string; bytes: number; points: number }> {
  const log = requireLog(session, req.logId);
  const version = req.version ?? session.store.labels.latest(log.id)?.version;
  if (version === undefined) throw new ApiError('bad_input', `drive log ${log.id} has no saved labels to export: save or import labels first`);
  const v = session.store.labels.read(log.id, version);
  if (!v) throw new ApiError('not_found', `drive log ${log.id} has no label version ${version}`);
  const path = projectPath(session, req.path);
  if (existsSync(path)) {
    if (!lstatSync(path).isFile()) throw new ApiError('bad_input', `${path}: not a regular file: choose another name`);
    if (!req.force) throw new ApiError('conflict', `${path}: a file of that name exists; export again with force (--force) to replace it`);
  }
  let data: Uint8Array | string;
  if (req.format === 'semantic-kitti') data = writeSemanticKittiLabels(v.rayClass, v.rayObject, null);
  else if (req.format === 'thicket-json') data = writeThicketLabels(v.rayClass, v.rayObject, v.entries, labelClasses(session));
  else {
    if (!req.calibration) throw new ApiError('bad_input', `${path}: KITTI object boxes are written in the camera frame: give the scan's calibration file (Tr_velo_to_cam, R0_rect)`);
    const calib = parseKittiCalibration(readSideFile(projectPath(session, req.calibration), CALIBRATION_FILE).text, req.calibration);
    const sweeps = (await runLabelCloud(session, log.id, null)).sweepStart.length;
    data = kittiObjectsOut(session, log.id, sweeps, v.entries, calib, labelClasses(session));
  }
  writeFileSync(path, data);
  return { path, bytes: typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength, points: v.info.points };
}
