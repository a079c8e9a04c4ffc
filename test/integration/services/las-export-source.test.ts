/**
 * A LAS file imported and exported again keeps what it held: its scale and offsets (the points
 * on the source's grid, at their georeferenced place), its coordinate-system VLR, its GPS clock,
 * its intensities and its classification codes — checked by reading both files with loaders.gl
 * and a reader written from the LAS specifications (test/helpers/las-readers.ts), for the
 * default LAS 1.4 export and for LAS 1.2 point format 3 on request.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataFile, HAS_SHARED_DATA } from '../../helpers/shared-data';
import { useAppServices } from '../../helpers/app-services';
import { readLasBySpec, readWithLoadersGl, type LoadersGlLas, type SpecLas } from '../../helpers/las-readers';

const app = useAppServices({ workers: 1, project: 'las.thicket' });
const SOURCE = dataFile('lidR_als/MixedConifer.laz');

async function importFile(path: string): Promise<number> {
  const { job } = await app.services.call('logs.importFile', { path });
  const s = await app.services.whenJobSettled(job.id);
  if (s.state !== 'done') throw new Error(`import ${s.state}: ${s.error}`);
  return Number(s.result!.log);
}

async function exportLas(log: number, name: string, lasVersion?: '1.2' | '1.4'): Promise<Uint8Array> {
  const path = join(app.dir, name);
  const { job } = await app.services.call('export.start', { source: { kind: 'log', id: log }, format: 'las', path, ...(lasVersion ? { lasVersion } : {}) });
  const s = await app.services.whenJobSettled(job.id);
  if (s.state !== 'done') throw new Error(`export ${s.state}: ${s.error}`);
  return new Uint8Array(readFileSync(path));
}

describe.skipIf(!HAS_SHARED_DATA)('MixedConifer.laz imported and exported as LAS', () => {
  let src: LoadersGlLas, srcSpec: SpecLas, log = 0;
  beforeAll(async () => {
    const bytes = new Uint8Array(readFileSync(SOURCE));
    src = await readWithLoadersGl(bytes, 'laz-perf');
    srcSpec = readLasBySpec(bytes);
    log = await importFile(SOURCE);
  });

  for (const version of ['1.4', '1.2'] as const) {
    it(`LAS ${version}: the source's scale, offsets, points, intensities, classes, CRS record and GPS time`, async () => {
      const bytes = await exportLas(log, `mixed-${version}.las`, version === '1.2' ? '1.2' : undefined);
      const spec = readLasBySpec(bytes);
      expect([spec.version, spec.pointFormat]).toEqual(version === '1.2' ? ['1.2', 3] : ['1.4', 6]);
      const out = await readWithLoadersGl(bytes, version === '1.2' ? 'laz-perf' : 'laz-rs');
      expect(out.count).toBe(src.count);
      expect(out.scale).toEqual(src.scale); // 0.01 m, not a fixed 1 mm
      expect(out.offset.map((v) => v + 0)).toEqual(src.offset.map((v) => v + 0));
      // Every point on the source's 1 cm grid at its georeferenced place (x 481,260…, not 0–90 m).
      let moved = 0;
      for (let i = 0; i < 3 * src.count; i++) {
        const a = i % 3;
        if (Math.round((out.position[i]! - out.offset[a]!) / out.scale[a]!) !== Math.round((src.position[i]! - src.offset[a]!) / src.scale[a]!)) moved++;
      }
      expect(moved).toBe(0);
      expect(out.position[0]).toBeGreaterThan(481_259);
      expect([...out.intensity]).toEqual([...src.intensity]);
      expect([...out.classification]).toEqual([...src.classification]);
      expect(out.classification.filter((c) => c === 2).length).toBe(5820); // ground stays ASPRS 2
      // The coordinate system: the GeoKeyDirectory VLR, byte for byte.
      const geo = (s: SpecLas) => s.vlrs.find((v) => v.userId === 'LASF_Projection' && v.recordId === 34735)!;
      expect([...geo(spec).data]).toEqual([...geo(srcSpec).data]);
      expect(spec.globalEncoding & 0x10).toBe(0); // GeoTIFF keys, not WKT
      // GPS time on the source's clock (149,928–152,207 s), within the float32 step of a
      // 2,279 s log (≤ 0.12 ms).
      let lo = Infinity, hi = -Infinity;
      for (const t of spec.gps!) { lo = Math.min(lo, t); hi = Math.max(hi, t); }
      expect(lo).toBeCloseTo(149928.3873062754, 6);
      expect(hi).toBeGreaterThan(152207);
      expect(hi).toBeLessThan(152208);
    });
  }

  it('a Thicket LAS imported and exported again keeps the source codes and the site classes', async () => {
    const first = join(app.dir, 'mixed-again.las');
    readLasBySpec(await exportLas(log, 'mixed-again.las'));
    const again = await importFile(first);
    const out = await readWithLoadersGl(await exportLas(again, 'mixed-twice.las'));
    expect([...out.classification]).toEqual([...src.classification]);
    expect([...out.intensity]).toEqual([...src.intensity]);
    // The site classes came back from the user data: ground where ASPRS said ground.
    const spec = readLasBySpec(readFileSync(join(app.dir, 'mixed-twice.las')));
    expect(spec.userData.filter((c) => c === 1).length).toBe(5820);
  });
});
