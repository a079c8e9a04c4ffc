/** SICK CoLa-B scans in a capture's JSON export: one packet of planar rays per LMDscandata telegram. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeSickJson, sickScanPacket } from '../../../../src-worker/formats/sick/sick-cola-json';
import { sampleJson } from '../../../../src-worker/formats/sick/sick-json-format';
import { DecodeError } from '../../../../src-worker/formats/decode-error';
import { dataFile, HAS_SHARED_DATA } from '../../../helpers/shared-data';

describe('SICK CoLa-B JSON', () => {
  it('decodes the sample: 2 scans of 5 beams from −45° at 0.3333°, 15 Hz, a zero distance as a miss', () => {
    const scans = decodeSickJson(new TextEncoder().encode(sampleJson()), 's.pcapng.json');
    expect(scans).toHaveLength(2);
    const s = scans[0]!;
    expect(s.scanHz).toBe(15);
    expect(s.startDeg).toBe(-45);
    expect(s.stepDeg).toBeCloseTo(0.3333, 6);
    expect(Array.from(s.range)).toEqual([1, 1.01, NaN, 2, 2.005].map((v) => Math.fround(v)));
    const p = sickScanPacket(s);
    expect(p.count).toBe(5);
    // SICK's 0° is the scanner's right: −45° points 135° clockwise from forward.
    const a = ((-45 - 90) * Math.PI) / 180;
    expect(p.dir[0]).toBeCloseTo(Math.cos(a), 6);
    expect(p.dir[1]).toBeCloseTo(Math.sin(a), 6);
    expect(p.dir[2]).toBe(0);
  });

  it('bad input names the file and the reason', () => {
    const bad = (text: string) => {
      try {
        decodeSickJson(new TextEncoder().encode(text), 'x.pcapng.json');
      } catch (e) {
        expect(e).toBeInstanceOf(DecodeError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(bad('{')).toMatch(/^x\.pcapng\.json: not JSON/);
    expect(bad('{}')).toBe('x.pcapng.json: expected a JSON array of captured TCP segments (_source.layers.tcp)');
    expect(bad('[]')).toBe('x.pcapng.json: no LMDscandata telegram (sSN LMDscandata) in the captured TCP payloads');
    expect(bad('[{"_source":{"layers":{"tcp":{"tcp.payload":"zz"}}}}]')).toBe('x.pcapng.json: entry 0: tcp.payload is not colon-separated hex bytes');
  });

  it.skipIf(!HAS_SHARED_DATA)('the LMS511 capture: 174 scans of 1141 beams, 0.1667° apart, 25 Hz, ranges of metres', () => {
    const scans = decodeSickJson(readFileSync(dataFile('sick_scan_xd/20210302_lms511.pcapng.json')), 'lms511.json');
    expect(scans).toHaveLength(174);
    for (const s of scans) expect(s.range.length).toBe(1141);
    expect(scans[0]!).toMatchObject({ scanHz: 25, startDeg: -5 });
    expect(scans[0]!.stepDeg).toBeCloseTo(0.1667, 4);
    expect(scans[0]!.range[0]).toBeCloseTo(1.305, 3);
  });
});
