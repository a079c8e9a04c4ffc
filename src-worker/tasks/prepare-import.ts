/**
 * What an import checks before any job or log row exists, so a wrong file fails at once: the
 * file's format (detected from its first bytes and name by the format registry unless given),
 * a calibration the format cannot do without, the calibration parsed into a profile, and the
 * poses file parsed (a bad row names its line). Bad input is answered, not thrown, so the host
 * can give it back with its error code.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { LogFormat } from '../../src-common/formats';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { DecodeError } from '../formats/decode-error';
import { parsePosesFile } from '../formats/poses-file';
import { DETECT_HEAD_BYTES, detectLogFormat, logFormat } from '../formats/registry';
import { CalibrationError, importCalibration } from '../sensors/calibration';
import { isFolder, readScanFolder } from './scan-folder';

export interface PrepareImportInput {
  /** Display name, used in errors. */
  name: string;
  /** A file on this machine, whose first bytes are read here, or */
  path?: string;
  /** the first bytes of an upload. */
  head?: Uint8Array;
  /** Given by the user: not detected. */
  format?: LogFormat;
  calibration: { name: string; text: string } | null;
  /** The calibration's sensor model, overriding detection (--model; src-worker/sensors/models.ts). */
  model?: string;
  poses: { name: string; text: string } | null;
}

export type PrepareImportResult =
  | {
      ok: true;
      format: LogFormat;
      /** The calibration as a profile (null without one, or when it is the format's own metadata). */
      calibrationProfile: SensorProfile | null;
      /**
       * The sensor the calibration describes, metadata formats included (what `profile import`
       * makes of the file): it becomes the log's profile. Null without a calibration.
       */
      sensorProfile: SensorProfile | null;
      /** The calibration when the format takes it as its metadata (an Ouster JSON). */
      metadata: { name: string; text: string } | null;
      poses: { name: string; times: Float64Array | null; poses: Float64Array } | null;
    }
  | { ok: false; code: 'bad_input' | 'not_found'; message: string };

class BadInput extends Error {
  constructor(
    readonly code: 'bad_input' | 'not_found',
    message: string,
  ) {
    super(message);
  }
}

export function prepareImport(input: PrepareImportInput): PrepareImportResult {
  try {
    return prepare(input);
  } catch (e) {
    if (e instanceof BadInput) return { ok: false, code: e.code, message: e.message };
    throw e;
  }
}

function prepare(input: PrepareImportInput): PrepareImportResult {
  const { name, calibration } = input;
  // A folder is a KITTI odometry folder of scans (scan-folder.ts), with its own poses.txt.
  const folder = !input.head && isFolder(input.path!) ? badInputOn(DecodeError, () => readScanFolder(input.path!)) : null;
  if (folder && input.format && input.format !== 'kitti-bin') throw new BadInput('bad_input', `${name}: a folder imports as KITTI scans (kitti-bin), not as ${input.format}`);
  const head = folder ? new Uint8Array(0) : input.head ?? readHead(input.path!);
  const id = folder ? 'kitti-bin' : input.format ?? detectLogFormat(name, head, { jsonCalibration: calibration !== null && /\.json$/i.test(calibration.name) });
  if (!id) {
    throw new BadInput('bad_input', `${name}: unknown file type (Thicket reads Velodyne and Ouster pcaps, ROS 2 .db3 and MCAP bags, KITTI .bin, PCD, PLY, LAS/LAZ and SICK scans as capture JSON; choose a format explicitly if the extension is unusual)`);
  }
  const metadataNeed = logFormat(id).calibrationIsMetadata;
  if (metadataNeed && !calibration) throw new BadInput('bad_input', `${name}: ${metadataNeed.missing} (give it as the calibration)`);
  if (input.model && !calibration) throw new BadInput('bad_input', `${name}: --model ${input.model} states the model of a calibration; give the calibration too (--calibration FILE)`);
  const stated = input.model ? { model: input.model } : {};
  // A metadata JSON (Ouster) decodes the packets itself; a stated model is still checked against it.
  if (calibration && metadataNeed && input.model) {
    const asStated = badInputOn(CalibrationError, () => importCalibration(calibration.text, calibration.name, stated)).profile;
    const asFile = badInputOn(CalibrationError, () => importCalibration(calibration.text, calibration.name)).profile;
    // The packets follow the metadata's lidar_mode: a capture's column count cannot be restated.
    const columns = (p: SensorProfile) => Math.round(1 / (p.rotationHz * p.groups[0]!.firingPeriod));
    if (columns(asStated) !== columns(asFile)) {
      throw new BadInput('bad_input', `${calibration.name}: --model ${input.model} states ${columns(asStated)} columns, but the capture's packets follow its lidar_mode (${columns(asFile)} columns)`);
    }
  }
  const calibrationProfile = calibration && !metadataNeed ? badInputOn(CalibrationError, () => importCalibration(calibration.text, calibration.name, stated).profile) : null;
  const sensorProfile = calibrationProfile ?? (calibration ? describedSensor(calibration, stated) : null);
  const posesFile = input.poses ?? folder?.poses ?? null;
  const poses = posesFile ? badInputOn(DecodeError, () => parsePosesFile(posesFile.text, posesFile.name)) : null;
  return {
    ok: true,
    format: id,
    calibrationProfile,
    sensorProfile,
    metadata: metadataNeed ? calibration : null,
    poses: poses && posesFile ? { name: posesFile.name, times: poses.times, poses: poses.poses } : null,
  };
}

/**
 * The profile a metadata calibration (an Ouster JSON) describes, or null where it cannot make one:
 * the import reads the file itself and reports what is wrong with it; a log without a profile
 * only needs one named when it is simulated.
 */
function describedSensor(calibration: { name: string; text: string }, stated: { model?: string }): SensorProfile | null {
  try {
    return importCalibration(calibration.text, calibration.name, stated).profile;
  } catch (e) {
    if (e instanceof CalibrationError) return null;
    throw e;
  }
}

/** Runs `parse`, turning its own kind of error (the file's fault) into bad input. */
function badInputOn<T>(kind: new (...args: never[]) => Error, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof kind) throw new BadInput('bad_input', e.message);
    throw e;
  }
}

function fileError(path: string, e: unknown): BadInput {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new BadInput('not_found', `${path}: no such file`);
  if (code === 'EISDIR') return new BadInput('bad_input', `${path}: is a folder, not a file`);
  return new BadInput('bad_input', `${path}: cannot read (${code ?? (e as Error).message})`);
}

function readHead(path: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw fileError(path, e);
  }
  try {
    const head = new Uint8Array(DETECT_HEAD_BYTES);
    const n = readSync(fd, head, 0, head.byteLength, 0);
    return head.subarray(0, n);
  } catch (e) {
    throw fileError(path, e);
  } finally {
    closeSync(fd);
  }
}
