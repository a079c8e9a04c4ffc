/**
 * A VelodyneScan bag keeps the misses the sensor recorded (distance-0 channels), with a
 * calibration or a built-in profile alike: none are rebuilt on top. The recorded count comes from
 * reading the bag with SQLite and @foxglove/cdr's reader, not Thicket's decoders.
 */
import Database from 'better-sqlite3';
import { CdrReader } from '@foxglove/cdr';
import { describe, expect, it } from 'vitest';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { useAppServices } from '../../helpers/app-services';

const app = useAppServices({ workers: 2, project: 'misses.thicket' });

/** Distance-0 channels and packets of every VelodyneScan in the bag (12 blocks × 32 channels, single return). */
function recordedEmpty(path: string): { packets: number; empty: number } {
  const db = new Database(path, { readonly: true });
  const rows = db.prepare(`SELECT m.data FROM messages m JOIN topics t ON m.topic_id = t.id WHERE t.type LIKE 'velodyne_msgs/%VelodyneScan'`).all() as { data: Buffer }[];
  db.close();
  let packets = 0, empty = 0;
  for (const { data } of rows) {
    const r = new CdrReader(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    r.int32(); r.uint32(); r.string();
    const n = r.sequenceLength();
    for (let k = 0; k < n; k++) {
      r.int32(); r.uint32();
      const bytes = r.uint8Array(1206);
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let b = 0; b < 12; b++) for (let c = 0; c < 32; c++) if (dv.getUint16(100 * b + 4 + 3 * c, true) === 0) empty++;
      packets++;
    }
  }
  return { packets, empty };
}

describe.skipIf(!HAS_SHARED_DATA)('VelodyneScan bags keep their recorded misses', () => {
  const bag = 'nebula_velodyne/vlp32/1713492677464078412_0.db3';
  for (const how of [{ calibrationPath: dataFile('nebula_velodyne/VLP32.yaml') }, { profileId: 'vlp32c' }]) {
    it(`VLP-32C bag with ${Object.keys(how)[0]}: misses = the bag's empty channels, none rebuilt`, async () => {
      const truth = recordedEmpty(dataFile(bag));
      expect(truth).toEqual({ packets: 379, empty: 14_231 });
      const { job } = await app.services.call('logs.importFile', { path: dataFile(bag), ...how });
      const final = await app.services.whenJobSettled(job.id);
      expect(final.state).toBe('done');
      const r = final.result as Record<string, number>;
      expect(r).toMatchObject({ packets: truth.packets, misses: truth.empty, rebuiltMisses: 0 });
      expect(r.hits! + r.misses!).toBe(384 * truth.packets);
    });
  }
});
