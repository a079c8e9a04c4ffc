/**
 * The checks an import makes before its job exists (tasks/prepare-import.ts): the format from
 * the file's first bytes and name, a missing file or a folder, an Ouster capture without its
 * metadata, a bad calibration or poses row — each answered with the API error code and a
 * message naming the file, never thrown.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareImport, type PrepareImportInput } from '../../../src-worker/tasks/prepare-import';
import { sampleVelodynePcap } from '../../../src-worker/formats/velodyne/velodyne-pcap-format';
import { tempDir } from '../../helpers/temp';

const tmp = tempDir('thicket-prepare-');
afterAll(() => tmp.cleanup());

const base: PrepareImportInput = { name: 'scan.bin', head: new Uint8Array(16), calibration: null, poses: null };

describe('prepare-import', () => {
  it('detects the format from the first bytes of a file on disk, and from an upload\'s head', () => {
    const path = join(tmp.dir, 'capture.dat');
    writeFileSync(path, sampleVelodynePcap());
    expect(prepareImport({ ...base, name: 'capture.dat', head: undefined, path })).toMatchObject({ ok: true, format: 'velodyne-pcap' });
    expect(prepareImport(base)).toMatchObject({ ok: true, format: 'kitti-bin', calibrationProfile: null, metadata: null, poses: null });
  });

  it('an unknown type, a missing file and a folder are bad input naming the file', () => {
    expect(prepareImport({ ...base, name: 'notes.txt' })).toEqual({ ok: false, code: 'bad_input', message: expect.stringMatching(/^notes\.txt: unknown file type \(Thicket reads Velodyne/) });
    const missing = join(tmp.dir, 'none.pcap');
    expect(prepareImport({ ...base, head: undefined, path: missing })).toEqual({ ok: false, code: 'not_found', message: `${missing}: no such file` });
    const folder = join(tmp.dir, 'folder.pcap');
    mkdirSync(folder);
    // A folder imports as KITTI scans (scan-folder.ts): one without any says so.
    expect(prepareImport({ ...base, head: undefined, path: folder })).toEqual({ ok: false, code: 'bad_input', message: expect.stringMatching(new RegExp(`^${folder}: is a folder without KITTI scans`)) });
  });

  it('a JSON calibration makes a capture an Ouster one, which cannot go without it', () => {
    const pcap = sampleVelodynePcap().subarray(0, 1024);
    const json = { name: 'os1.json', text: '{}' };
    // '{}' is no Ouster metadata: the import itself will say so; no profile describes it.
    expect(prepareImport({ ...base, name: 'o.pcap', head: pcap, calibration: json })).toMatchObject({ ok: true, format: 'ouster-pcap', metadata: json, calibrationProfile: null, sensorProfile: null });
    expect(prepareImport({ ...base, name: 'o.pcap', head: pcap, format: 'ouster-pcap' })).toEqual({
      ok: false, code: 'bad_input', message: 'o.pcap: an Ouster capture needs its metadata JSON (give it as the calibration)',
    });
  });

  it('parses a calibration into a profile and a poses file into poses; their errors name file and place', () => {
    const yaml = { name: 'bad.yaml', text: 'lasers: [oops' };
    const bad = prepareImport({ ...base, calibration: yaml });
    expect(bad).toMatchObject({ ok: false, code: 'bad_input' });
    expect(!bad.ok && bad.message).toContain('bad.yaml');
    const poses = { name: 'p.csv', text: 'time,x,y,z,qx,qy,qz,qw\n0,0,0,0,0,0,0,1\n1,1,0,0,0,0,0,1\n' };
    const ok = prepareImport({ ...base, poses });
    expect(ok.ok && ok.poses?.poses.length).toBe(14);
    expect(ok.ok && Array.from(ok.poses!.times!)).toEqual([0, 1]);
    const row = prepareImport({ ...base, poses: { name: 'p.csv', text: 'time,x,y,z,qx,qy,qz,qw\n0,0,0,zero,0,0,0,1\n' } });
    expect(row).toEqual({ ok: false, code: 'bad_input', message: expect.stringMatching(/p\.csv, line 2/) });
  });
});
