/**
 * A capture's chunks are stored packed (the raw payloads) and read back packed: the store attaches
 * the profile that decodes them and never rebuilds rays itself; the worker that reads a chunk
 * (withRays) rebuilds rays bit-identical to what the import decoded.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PacketChunk } from '../../../src-common/packets';
import { openProject } from '../../../src-main/store';
import { memorySource, type DecodedPacket } from '../../../src-worker/formats/log-source';
import { LogWriter } from '../../../src-worker/formats/log-writer';
import { withRays } from '../../../src-worker/formats/packed-rays';
import { velodynePcapPackets } from '../../../src-worker/formats/velodyne/velodyne-pcap';
import { HAS_SHARED_DATA as HAVE_DATA, SHARED_DATA as DATA_DIR } from '../../helpers/shared-data';
import { useTempDir } from './helpers';

describe.skipIf(!HAVE_DATA)('packed chunks in the store', () => {
  const tmp = useTempDir();

  it('are read back packed with their decoder, and decode in the reader to the imported rays', () => {
    const bytes = readFileSync(path.join(DATA_DIR, 'rust_lidar_utils/hdl32_example.pcap'));
    const written: PacketChunk[] = [];
    const w = new LogWriter((c) => written.push(c), { raysPerChunk: 50_000 });
    const direct: DecodedPacket[] = [];
    const g = velodynePcapPackets(memorySource('h.pcap', bytes), { name: 'h.pcap' });
    let r;
    while (!(r = g.next()).done) {
      w.add(r.value);
      direct.push({ ...r.value, dir: r.value.dir.slice(), range: r.value.range.slice() });
    }
    const totals = w.finish();
    const profile = r.value.decodeProfile!;

    const store = openProject(tmp.file('packed.thicket'), { create: true });
    try {
      const logId = store.logs.beginImport({ name: 'h', format: 'velodyne-pcap', sourcePath: null, profileId: null, jobId: null });
      written.forEach((c, seq) => store.logs.appendChunk(logId, seq, c));
      store.logs.finishImport(logId, { packets: totals.packets, points: totals.rays, hits: totals.hits, misses: totals.misses, durationS: 0, bounds: null, decodeProfile: profile });

      const read = [...store.logs.chunks(logId)];
      expect(read.length).toBe(written.length);
      expect(read.every((c) => c.packed !== undefined && c.rayDir.length === 0)).toBe(true);
      expect(read[0]!.packed!.decoder).toMatchObject({ profile: { id: profile.id }, origin: `drive log ${logId} chunk 0` });

      let k = 0;
      for (const c of read.map(withRays)) {
        expect(c.rayDir.length).toBe(3 * c.rayCount);
        for (let p = 0; p < c.packetCount; p++, k++) {
          const a = c.rayStart[p]!, b = c.rayStart[p + 1]!;
          expect(Array.from(c.rayRange.subarray(a, b))).toEqual(Array.from(direct[k]!.range));
          expect(Array.from(c.rayDir.subarray(3 * a, 3 * b))).toEqual(Array.from(direct[k]!.dir));
        }
      }
      expect(k).toBe(direct.length);
    } finally {
      store.close();
    }
  });
});
