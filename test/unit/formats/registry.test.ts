/**
 * The format registry is the one list of formats: every registered format must be detected
 * (from a sample's first bytes and from each of its extensions), fuzzed (its targets are in the
 * fuzz run, and their samples decode), and listed (in the API's formats.list and the CLI
 * usage); detection keeps its order (signatures before names, Ouster only with a JSON
 * calibration).
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS, LOG_FORMATS, type LogFormat } from '../../../src-common/formats';
import {
  DETECT_HEAD_BYTES, EXPORT_FORMAT_REGISTRY, LOG_FORMAT_REGISTRY, detectLogFormat, formatCatalogue, fuzzTargets,
} from '../../../src-worker/formats/registry';
import type { LogFormatDescriptor } from '../../../src-worker/formats/log-format';
import { USAGE } from '../../../src-main/cli/usage';
import { useAppServices } from '../../helpers/app-services';

const app = useAppServices({ workers: 1, prefix: 'thicket-registry-' });
const descriptors: LogFormatDescriptor[] = Object.values(LOG_FORMAT_REGISTRY);
/** Formats without a signature or a textual header: known by their name only. */
const NAME_ONLY: ReadonlySet<LogFormat> = new Set(['kitti-bin']);

/** A real (empty) SQLite file: a .db3 bag's first bytes; its fuzz targets are messages. */
function sqliteFile(): Uint8Array {
  const path = join(app.dir, 'empty.db3');
  const db = new Database(path);
  db.exec('CREATE TABLE topics(id INTEGER PRIMARY KEY)');
  db.close();
  return readFileSync(path);
}

const samplesOf = (d: LogFormatDescriptor): Uint8Array[] => [
  ...d.fuzz.map((t) => t.sample()),
  ...(d.info.id === 'ros2-db3' ? [sqliteFile()] : []),
];
const detectOpts = (d: LogFormatDescriptor) => ({ jsonCalibration: !!d.detect.onlyWithJsonCalibration });

describe('format registry', () => {
  it('has one descriptor per log and export format id, keyed by its own id', () => {
    expect(Object.keys(LOG_FORMAT_REGISTRY).sort()).toEqual([...LOG_FORMATS].sort());
    expect(Object.keys(EXPORT_FORMAT_REGISTRY).sort()).toEqual([...EXPORT_FORMATS].sort());
    for (const [id, d] of Object.entries(LOG_FORMAT_REGISTRY)) expect(d.info.id).toBe(id);
    for (const [id, d] of Object.entries(EXPORT_FORMAT_REGISTRY)) expect(d.info.id).toBe(id);
  });

  for (const d of descriptors) {
    describe(d.info.id, () => {
      it('is detected from a sample\'s first bytes under a name that says nothing', () => {
        const found = samplesOf(d).some((s) => detectLogFormat('sample.dat', s.subarray(0, DETECT_HEAD_BYTES), detectOpts(d)) === d.info.id);
        expect(found || NAME_ONLY.has(d.info.id)).toBe(true);
      });

      it('is detected from each of its extensions, whatever the case', () => {
        expect(d.info.extensions.length).toBeGreaterThan(0);
        for (const ext of d.info.extensions) {
          expect(detectLogFormat(`x${ext}`, new Uint8Array(16), detectOpts(d))).toBe(d.info.id);
          expect(detectLogFormat(`X${ext.toUpperCase()}`, new Uint8Array(16), detectOpts(d))).toBe(d.info.id);
        }
      });

      it('is fuzzed: its targets are in the fuzz run and their samples decode', () => {
        expect(d.fuzz.length).toBeGreaterThan(0);
        const run = new Set(fuzzTargets().map((t) => t.name));
        for (const t of d.fuzz) {
          expect(run.has(t.name)).toBe(true);
          expect(() => t.decode(t.sample())).not.toThrow();
        }
      });

      it('is listed by the API and the CLI usage', async () => {
        const list = await app.services.call('formats.list', {});
        expect(list.log.find((f) => f.id === d.info.id)).toEqual(d.info);
        expect(USAGE).toMatch(new RegExp(`F: .*\\b${d.info.id}\\b`));
      });
    });
  }

  it('lists every export format with its label in the API and the CLI usage', async () => {
    const list = await app.services.call('formats.list', {});
    expect(list).toEqual(JSON.parse(JSON.stringify(formatCatalogue())));
    for (const id of EXPORT_FORMATS) expect(USAGE).toMatch(new RegExp(`--format [a-z|]*\\b${id}\\b`));
  });

  it('fuzz target names are unique (the fuzzer seeds each from its name)', () => {
    const names = fuzzTargets().map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('detection order', () => {
  const head = (s: string | number[]) => (typeof s === 'string' ? new TextEncoder().encode(s) : Uint8Array.from(s));
  it('recognises files by magic bytes before extensions', () => {
    expect(detectLogFormat('x.bin', head([0xd4, 0xc3, 0xb2, 0xa1]))).toBe('velodyne-pcap');
    expect(detectLogFormat('x.bin', head([0xd4, 0xc3, 0xb2, 0xa1]), { jsonCalibration: true })).toBe('ouster-pcap');
    expect(detectLogFormat('x', head([0x0a, 0x0d, 0x0d, 0x0a]))).toBe('velodyne-pcap');
    expect(detectLogFormat('x', head([0x89, 0x4d, 0x43, 0x41, 0x50, 0x30]))).toBe('mcap');
    expect(detectLogFormat('bag', head('SQLite format 3\0'))).toBe('ros2-db3');
    expect(detectLogFormat('a.laz', head('LASF'))).toBe('las');
    expect(detectLogFormat('s', head('ply\nformat ascii 1.0\n'))).toBe('ply');
    expect(detectLogFormat('s.pcd', head('# .PCD v0.7\nVERSION 0.7\n'))).toBe('pcd');
    expect(detectLogFormat('000000.bin', head([1, 2, 3, 4]))).toBe('kitti-bin');
    expect(detectLogFormat('notes.txt', head('hello'))).toBeNull();
  });

  it('recognises PCD by its header whatever the name, KITTI by its extension only', () => {
    expect(detectLogFormat('scan.dat', head('# .PCD v0.7 - Point Cloud Data file format\n'))).toBe('pcd');
    expect(detectLogFormat('noext', head('# my comment\n\nVERSION .7\nFIELDS x y z\n'))).toBe('pcd');
    expect(detectLogFormat('noext', head('FIELDS x y z\nSIZE 4 4 4\n'))).toBe('pcd');
    const floats = new Uint8Array(new Float32Array([1.5, 2, 3, 4]).buffer);
    expect(detectLogFormat('000000.BIN', floats)).toBe('kitti-bin');
    expect(detectLogFormat('broken.pcd', floats)).toBe('pcd'); // the PCD decoder says what is wrong
    // A KITTI file whose first byte happens to be '#' is still KITTI.
    expect(detectLogFormat('a.bin', Uint8Array.of(0x23, 0x00, 0x80, 0x3f))).toBe('kitti-bin');
  });

  it('checks names after every signature, and a PCD header only in the name pass', () => {
    // A PLY named .pcap is a PLY; a PCD header in a .ply file is the PLY reader's to refuse.
    expect(detectLogFormat('scan.pcap', head('ply\nformat ascii 1.0\n'))).toBe('ply');
    expect(detectLogFormat('scan.ply', head('# .PCD v0.7\nVERSION 0.7\n'))).toBe('ply');
    expect(detectLogFormat('scan.dat', head('# .PCD v0.7\nVERSION 0.7\n'))).toBe('pcd');
    // nuScenes' .pcd.bin is not a KITTI scan.
    expect(detectLogFormat('x__LIDAR_TOP__1.pcd.bin', head([1, 2, 3, 4]))).toBeNull();
    // A .pcap with a JSON calibration is an Ouster capture, with a YAML one a Velodyne one.
    expect(detectLogFormat('drive.pcap', head([1, 2, 3, 4]), { jsonCalibration: true })).toBe('ouster-pcap');
    expect(detectLogFormat('drive.pcap', head([1, 2, 3, 4]))).toBe('velodyne-pcap');
  });
});
