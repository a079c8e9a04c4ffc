/**
 * Per-class figures (src-worker/evaluate/breakdowns.ts; docs/methods.md §6, *Breakdowns*) on a
 * real labelled off-road scan: RELLIS-3D's ../shared/data/rellis3d/000104.bin (float32 x, y, z,
 * i) with its SemanticKITTI-layout labels 000104.label (uint32 per point, semantic class in the
 * low 16 bits). Thicket has no importer for such label files, so the test builds the labelled
 * packet itself, mapping RELLIS-3D's ontology (Jiang et al., "RELLIS-3D Dataset: Data, Benchmarks
 * and Analysis", 2021) to Thicket's classes: grass → grass, tree → medium tree, bush → medium
 * shrub, dirt / asphalt / concrete → ground, the rest unknown. The simulated side is the same
 * scan with every grass ray a miss (beams through the grass) and every tree ray 0.2 m longer;
 * the expected counts come straight from the files.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ChunkBuilder } from '../../../src-worker/formats/chunk-builder';
import { evaluatePacketChunks } from '../../../src-worker/evaluate/observation-metrics';
import { SiteClass } from '../../../src-common/classes';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';

const RELLIS_TO_SITE: Record<number, number> = { 1: SiteClass.ground, 3: SiteClass.grass, 4: SiteClass.mediumTree, 10: SiteClass.ground, 19: SiteClass.mediumShrub, 23: SiteClass.ground };

describe.skipIf(!HAS_SHARED_DATA)('per-class figures on a labelled RELLIS-3D scan', () => {
  const pts = HAS_SHARED_DATA ? readFileSync(dataFile('rellis3d/000104.bin')) : Buffer.alloc(0);
  const lab = HAS_SHARED_DATA ? readFileSync(dataFile('rellis3d/000104.label')) : Buffer.alloc(0);
  const xyz = new Float32Array(pts.buffer, pts.byteOffset, pts.byteLength / 4);
  const labels = new Uint32Array(lab.buffer.slice(lab.byteOffset, lab.byteOffset + lab.byteLength));
  const n = xyz.length / 4;
  const classOf = (i: number) => RELLIS_TO_SITE[labels[i]! & 0xffff] ?? SiteClass.unknown;

  function scan(change: (cls: number, r: number) => number) {
    const b = new ChunkBuilder(0);
    b.beginPacket(0, [0, 0, 0, 0, 0, 0, 1]);
    for (let i = 0; i < n; i++) {
      const x = xyz[4 * i]!, y = xyz[4 * i + 1]!, z = xyz[4 * i + 2]!;
      const r = Math.hypot(x, y, z);
      if (!(r > 0)) continue; // an organised scan's empty cell: no return recorded
      const c = classOf(i);
      b.pushRay(x / r, y / r, z / r, change(c, r), 0, 0, 0, 0, 0, c);
    }
    return b.finish();
  }

  it('counts, recall and precision per class as the labels say; the point-cloud error per class', () => {
    expect(labels.length).toBe(n);
    const real = scan((_c, r) => r);
    const sim = scan((c, r) => (c === SiteClass.grass ? NaN : c === SiteClass.mediumTree ? r + 0.2 : r));
    const m = evaluatePacketChunks([real], [sim], { pointCloud: false });
    const hits = (cls: number) => {
      let k = 0;
      for (let i = 0; i < n; i++) if (classOf(i) === cls && Math.hypot(xyz[4 * i]!, xyz[4 * i + 1]!, xyz[4 * i + 2]!) > 0) k++;
      return k;
    };
    const per = Object.fromEntries(m.perClass!.map((c) => [c.name, c]));
    expect(Object.keys(per).sort()).toEqual(['grass', 'ground', 'medium shrub', 'medium tree', 'unknown']);
    // The manifest's rough counts: grass 18k, tree 17.9k, bush 3.4k.
    expect(per.grass!.realHits).toBe(hits(SiteClass.grass));
    expect(per.grass!.realHits).toBeGreaterThan(15_000);
    expect(per.grass).toMatchObject({ trueHits: 0, falseMisses: hits(SiteClass.grass), recall: 0, precision: null, pointCloudError: null });
    expect(per['medium tree']).toMatchObject({ realHits: hits(SiteClass.mediumTree), trueHits: hits(SiteClass.mediumTree), recall: 1, precision: 1 });
    // Each tree point moved 0.2 m along its ray: the nearest neighbour is at most that far, and the scan's spacing makes it well above 0.
    expect(per['medium tree']!.pointCloudError!).toBeGreaterThan(0.02);
    expect(per['medium tree']!.pointCloudError!).toBeLessThanOrEqual(0.2 + 1e-5);
    for (const name of ['ground', 'medium shrub', 'unknown']) {
      expect(per[name]).toMatchObject({ recall: 1, precision: 1, falseHits: 0, falseMisses: 0 });
      expect(per[name]!.pointCloudError!).toBeLessThan(1e-6);
    }
    expect(per['medium shrub']!.realHits).toBe(hits(SiteClass.mediumShrub));
    expect(per.ground!.realHits).toBe(hits(SiteClass.ground));
    // The classes add up to the whole.
    expect(m.perClass!.reduce((s, c) => s + c.realHits, 0)).toBe(m.trueHits + m.falseMisses);
  });

  it('a false hit takes the simulated ray\'s class; an unlabelled log has no per-class figures', () => {
    // The real scan returns nothing from its grass; the run hits it there: false hits of class grass.
    const real = scan((c, r) => (c === SiteClass.grass ? NaN : r));
    const sim = scan((_c, r) => r);
    const m = evaluatePacketChunks([real], [sim], { pointCloud: false });
    const grass = m.perClass!.find((c) => c.name === 'grass')!;
    expect(grass).toMatchObject({ realHits: 0, trueHits: 0, falseHits: m.falseHits, recall: null, precision: 0 });
    const unlabelled = scan(() => 10);
    unlabelled.rayClass.fill(0);
    expect(evaluatePacketChunks([unlabelled], [unlabelled], { pointCloud: false }).perClass).toBeNull();
  });
});
