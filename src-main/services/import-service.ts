import { basename } from 'node:path';
import { ApiError } from '../api/contract';
import type { LogFormat } from '../../src-common/formats';
import type { JobSpec, RunningJob } from '../jobs/job-runner';
import type { ImportLogInput, ImportLogSummary } from '../../src-worker/tasks/import-log';
import type { PrepareImportInput, PrepareImportResult } from '../../src-worker/tasks/prepare-import';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { DETECT_HEAD_BYTES } from '../../src-common/format-info';
import type { ProjectSession } from './project-session';
import type { EventBus } from './event-bus';
import { adoptProfile, resolveProfileForUse } from './profiles-service';
import { resolveMount, type MountRequest } from './mount-request';
import { CALIBRATION_FILE, POSES_FILE, readSideFile, refuseSpecialFile } from './side-file';
import type { ScanRange } from '../../src-common/scan-range';
import { LogSourcesRepository } from '../store/log-sources-repository';

export interface ImportRequest extends MountRequest {
  name?: string;
  path?: string;
  bytes?: Uint8Array;
  format?: LogFormat;
  /** A profile of the project (built-in or custom) that decodes / rebuilds misses. */
  profileId?: string;
  rebuildMisses?: boolean;
  /** A calibration file (Velodyne YAML or db.xml, Ouster metadata JSON): path or name + text. */
  calibrationPath?: string;
  calibration?: { name: string; text: string };
  /** The calibration's sensor model, overriding detection (--model). */
  sensorModel?: string;
  /** A poses file (KITTI rows, CSV, TUM): path or name + text. */
  posesPath?: string;
  poses?: { name: string; text: string };
  /** Only these scans (numbered from 1, inclusive; to null = the last). */
  scans?: ScanRange;
}

/**
 * Start importing a drive log. Everything that can be checked before decoding is checked first
 * (format, profile, calibration, poses file) by a short worker task, so a wrong file fails at
 * once, before any job or row exists. The log row then exists from the start in state
 * 'importing' (so a host killed mid-import leaves a row that the next open removes); chunks are
 * written as the worker streams them; success marks it ready, failure or cancel deletes it.
 */
export async function startImport(session: ProjectSession, events: EventBus, req: ImportRequest): Promise<RunningJob> {
  const name = req.name ?? (req.path ? basename(req.path) : 'scan');
  let bytes = req.bytes;
  // Transfer only a buffer the array owns entirely; otherwise copy once.
  if (bytes && (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength)) bytes = bytes.slice();
  if (req.path) refuseSpecialFile(req.path, 'drive log');
  const calibration = req.calibration ?? (req.calibrationPath ? readSideFile(req.calibrationPath, CALIBRATION_FILE) : null);
  const poses = req.poses ?? (req.posesPath ? readSideFile(req.posesPath, POSES_FILE) : null);
  // The sensor on the vehicle (a bad extrinsic fails here, before any job or row).
  const mount = resolveMount(req);
  const checks: PrepareImportInput = {
    // The file's own name tells its format (and names it in errors), not the log's display name.
    name: req.path ? basename(req.path) : name,
    ...(bytes ? { head: bytes.slice(0, DETECT_HEAD_BYTES) } : { path: req.path }),
    ...(req.format ? { format: req.format } : {}),
    calibration,
    ...(req.sensorModel ? { model: req.sensorModel } : {}),
    poses,
  };
  const prepared = (await session.runner.runTransient('prepare-import', checks)).result as PrepareImportResult;
  if (!prepared.ok) throw new ApiError(prepared.code, prepared.message);
  const format: LogFormat = prepared.format;

  // The decoding profile: a calibration file wins over a named profile.
  let profile: SensorProfile | null = null;
  let profileId: string | null = null;
  if (req.profileId) {
    profile = resolveProfileForUse(session.store, req.profileId);
    profileId = profile.id;
  }
  if (prepared.calibrationProfile) profile = prepared.calibrationProfile;
  const parsedPoses = prepared.poses;

  const stored = new Int32Array(new SharedArrayBuffer(4));
  const input: ImportLogInput = {
    name,
    path: req.path,
    bytes,
    format,
    profile,
    rebuildMisses: req.rebuildMisses,
    metadata: prepared.metadata,
    poses: parsedPoses,
    mount: mount ? [...mount.pose] : null,
    scans: req.scans ?? null,
    stored,
  };
  let logId = 0;
  let seq = 0;
  const spec: JobSpec = {
    kind: 'import',
    params: { name, path: req.path ?? null, format, bytes: bytes?.byteLength ?? null, profileId, calibration: calibration?.name ?? null, poses: poses?.name ?? null, scans: req.scans ?? null },
    task: 'import-log',
    input,
    transfer: bytes ? [bytes.buffer as ArrayBuffer] : [],
    onMessage: (m) => {
      if (m.type !== 'chunk') return;
      session.store.logs.appendChunk(logId, seq++, m.chunk);
      Atomics.add(stored, 0, 1);
      Atomics.notify(stored, 0);
    },
    onSuccess: (output) => {
      const s = output as ImportLogSummary;
      const info: Record<string, unknown> = {
        ...s.info.notes,
        ...(s.info.sensor ? { sensor: s.info.sensor } : {}),
        decodedWith: profile ? profile.id : s.info.profileId ?? null,
        ...(calibration ? { calibration: calibration.name } : {}),
        ...(poses ? { poses: poses.name } : {}),
        // Vehicle ← sensor: simulate --poses-from undoes it to recover the vehicle's poses.
        ...(mount ? { mount: mount.pose, mountSource: mount.source } : {}),
        startTime: s.startTime,
        rebuiltMisses: s.rebuiltMisses,
        ...(s.dropped ? { dropped: s.dropped } : {}),
        ...(s.timeReversals ? { timeReversals: s.timeReversals } : {}),
        ...(s.scans ? { scans: `${s.scans.first}:${s.scans.last} of ${s.scans.total}`, ...(s.scans.placement ? { posesPlacement: s.scans.placement } : {}) } : {}),
        ...(s.warnings.length ? { warnings: s.warnings } : {}),
      };
      // The profile that decoded the log becomes the log's: a named one, a built-in the format
      // picked (stored so the key holds), or the calibration's, saved as a custom profile.
      session.store.transaction(() => {
        const logProfile = profileId
          ?? (prepared.sensorProfile ? adoptProfile(session.store, prepared.sensorProfile) : null)
          ?? (!calibration && s.info.profileId ? resolveProfileForUse(session.store, s.info.profileId).id : null);
        // What the file held beside its packets (a LAS header's), for an export to restore.
        if (s.info.source) new LogSourcesRepository(session.store.db).put(logId, s.info.source);
        session.store.logs.finishImport(logId, {
          packets: s.packets,
          points: s.hits,
          hits: s.hits,
          misses: s.misses,
          durationS: s.durationS,
          bounds: s.bounds,
          info,
          ...(logProfile ? { profileId: logProfile } : {}),
          ...(s.info.decodeProfile ? { decodeProfile: s.info.decodeProfile } : {}),
        });
      });
      events.emit({ type: 'project', entity: 'driveLogs', id: logId });
      return { log: logId, format, packets: s.packets, points: s.hits, hits: s.hits, misses: s.misses, rebuiltMisses: s.rebuiltMisses, dropped: s.dropped, durationS: s.durationS,
        ...(s.scans ? { scans: s.scans.last - s.scans.first + 1, scansInCapture: s.scans.total } : {}), warnings: s.warnings };
    },
    onAbort: () => {
      if (logId) session.store.logs.discard(logId);
    },
  };
  const running = session.runner.submit(spec);
  // Synchronous right after submit: no task message can be handled before the row exists.
  logId = session.store.logs.beginImport({ name, format, sourcePath: req.path ?? null, profileId, jobId: running.job.id });
  return running;
}
