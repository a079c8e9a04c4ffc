/**
 * Bad input gets a message naming the file, the place and the reason in words: no "column
 * undefined", no stack overflow, no library wording that says nothing of the file, and never
 * the file's own text (the readers see whatever file a user or API client points them at).
 */
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../../src-worker/formats/decode-error';
import { memorySource } from '../../../src-worker/formats/log-source';
import { scanPackets } from '../../../src-worker/formats/scan-packets';
import { decodeKittiBin } from '../../../src-worker/formats/kitti/kitti-bin';
import { decodePly } from '../../../src-worker/formats/ply/ply';
import { fuzzTargets } from '../../../src-worker/formats/registry';
import { importCalibration } from '../../../src-worker/sensors/calibration/index';
import { decodeErrorOf } from './helpers';
import { mutate, seededRandom } from './mutate';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

describe('calibration files', () => {
  it('an empty db.xml: "empty file", not "column undefined"', () => {
    expect(messageOf(() => importCalibration('', 'db.xml'))).toBe('db.xml: empty file: not a Velodyne db.xml calibration');
  });

  it('a db.xml cut short lists a few unclosed elements, not all of them', () => {
    const m = messageOf(() => importCalibration('<a>'.repeat(50_000), 'db.xml'));
    expect(m).toMatch(/^db\.xml: line 1, column 1: not valid XML: the file ends with 50000 elements never closed \(<a>, <a>, <a>, …\)$/);
  });

  it('deeply nested JSON and YAML: the file and "nested", not "Maximum call stack size exceeded"', () => {
    const json = messageOf(() => importCalibration('['.repeat(100_000), 'meta.json'));
    expect(json).toBe('meta.json: invalid JSON at line 1, column 1001: nested more than 1000 levels deep');
    const yaml = messageOf(() => importCalibration(`lasers: ${'['.repeat(50_000)}`, 'cal.yaml'));
    expect(yaml).toMatch(/^cal\.yaml: line \d+, column \d+: not valid YAML: nested too deeply/);
  });
});

describe('logs', () => {
  it('an all-NaN KITTI scan is an error, not an empty log', () => {
    const bytes = new Uint8Array(new Float32Array(Array.from({ length: 400 }, (_, i) => (i % 4 === 3 ? 0.5 : NaN))).buffer);
    const e = decodeErrorOf(() => [...scanPackets(memorySource('nan.bin', bytes), 'nan.bin', 'kitti-bin', decodeKittiBin)]);
    expect(e.message).toBe('nan.bin: all 100 point(s) have NaN or infinite coordinates: nothing to import');
  });

  it('a binary file read as PLY: the byte in hex and what a header is', () => {
    const e = decodeErrorOf(() => decodePly(new Uint8Array([0x12, 0x34, 0x56]), 'x.ply'));
    expect(e.message).toBe('x.ply, line 1: header: byte 0 is 0x12, not text (a PLY header is ASCII lines, the first "ply")');
  });

  it('damaged MCAP records: no bare "offset is out of bounds" from the library', () => {
    // The seed and count once gave three such messages (found by collecting every rejection's wording).
    for (const t of fuzzTargets().filter((x) => x.name.startsWith('mcap reader'))) {
      const sample = t.sample();
      const rnd = seededRandom(12345);
      for (let k = 0; k < 1500; k++) {
        try {
          t.decode(mutate(sample, rnd).bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(DecodeError);
          expect((e as Error).message).not.toMatch(/offset is out of bounds|undefined|Maximum call stack/);
        }
      }
    }
  }, 60_000);
});
