/**
 * Poses one per scan (pose-lookup.ts with capture-scans.ts) on the real Ouster lb_n3 capture and
 * its three ouster-sdk SLAM poses: each row is the pose at its scan's mid-time, rotation included,
 * within 1e-6; halfway between two mid-times the pose is their slerp; outside them the end rows hold.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { logFormat } from '../../../src-worker/formats/registry';
import { memorySource } from '../../../src-worker/formats/log-source';
import { selectScans } from '../../../src-worker/formats/scan-selection';
import { parsePosesFile } from '../../../src-worker/formats/poses-file';
import { poseLookupFromFile } from '../../../src-worker/formats/pose-lookup';

const ctx = { checkCancelled: () => {}, progress: () => {} };

describe.skipIf(!HAS_SHARED_DATA)('poses one per scan on the lb_n3 capture', () => {
  const open = () => logFormat('ouster-pcap').open({
    src: memorySource('lb_n3.pcap', readFileSync(dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap'))),
    name: 'lb_n3.pcap', path: null, profile: null,
    metadata: { name: 'meta.json', text: readFileSync(dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10.json'), 'utf8') },
    ctx, openBag: () => { throw new Error('no bags'); },
  });
  const file = parsePosesFile(readFileSync(dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3_poses_kitti.txt'), 'utf8'), 'poses.txt');

  it('counts 3 scans of 64 packets, mid-times 0.1 s apart, and places each row at its mid-time', () => {
    const sel = selectScans(open(), 'lb_n3.pcap', null);
    const scans = sel.capture!;
    expect(sel).toMatchObject({ total: 3, first: 1, last: 3, fromPacket: 0, toPacket: 192 });
    expect(Array.from(scans.starts)).toEqual([0, 64, 128]);
    // 1024 × 10 mode: a scan every 0.1 s (within 1 ms, the sensor's clock against its nominal rate).
    expect(scans.midTimes[1]! - scans.midTimes[0]!).toBeCloseTo(0.1, 3);
    expect(scans.midTimes[2]! - scans.midTimes[1]!).toBeCloseTo(0.1, 3);
    const lookup = poseLookupFromFile({ name: 'poses.txt', ...file }, scans);
    expect(lookup.placement).toBe('per-scan');
    const out = new Float64Array(7);
    for (let k = 0; k < 3; k++) {
      lookup.poseFor(0, 0, scans.midTimes[k]!, out);
      const row = file.poses.subarray(7 * k, 7 * k + 7);
      // q and −q are one rotation.
      const sign = Math.sign(out[3]! * row[3]! + out[4]! * row[4]! + out[5]! * row[5]! + out[6]! * row[6]!) || 1;
      for (let i = 0; i < 7; i++) expect(Math.abs(out[i]! - (i >= 3 ? sign : 1) * row[i]!)).toBeLessThan(1e-6);
    }
    // Before the first mid-time and after the last, the end rows hold.
    lookup.poseFor(0, 0, scans.midTimes[0]! - 0.04, out);
    expect(out[0]).toBeCloseTo(file.poses[0]!, 12);
    lookup.poseFor(0, 0, scans.midTimes[2]! + 0.04, out);
    expect(out[0]).toBeCloseTo(file.poses[14]!, 12);
    // Halfway between scans 1 and 2: the mean position.
    lookup.poseFor(0, 0, 0.5 * (scans.midTimes[0]! + scans.midTimes[1]!), out);
    for (let i = 0; i < 3; i++) expect(out[i]).toBeCloseTo(0.5 * (file.poses[i]! + file.poses[7 + i]!), 9);
  });

  it('a range of scans keeps its packets; a rows count that fits neither packets nor scans names all three', () => {
    expect(selectScans(open(), 'lb_n3.pcap', { from: 2, to: null })).toMatchObject({ first: 2, last: 3, fromPacket: 64, toPacket: 192 });
    expect(() => selectScans(open(), 'lb_n3.pcap', { from: 4, to: 4 })).toThrow('lb_n3.pcap: scans 4:4 asked for, but the capture has 3 scan(s)');
    const scans = selectScans(open(), 'lb_n3.pcap', null).capture!;
    const two = { name: 'two.txt', times: null, poses: file.poses.slice(0, 14) };
    expect(() => poseLookupFromFile(two, scans)).toThrow("two.txt: 2 pose row(s) without times fit neither the capture's 192 packet(s) nor its 3 scan(s)");
  });
});
