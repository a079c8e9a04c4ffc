/**
 * Labelling a real scan through the API: RELLIS-3D's organised OS1-64 scan (64 × 2048 cells, empty
 * cells imported as misses) with its SemanticKITTI-style `.label` (one u32 per cell). Versions,
 * the labels reaching every reader of the log's chunks, edits, conflicts, comparison, files out
 * and back in, automatic proposals and bad files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectApiError, useAppServices } from '../../helpers/app-services';
import { dataFile, HAS_SHARED_DATA } from '../../helpers/shared-data';
import { RELLIS3D_CLASS_MAP } from '../../../src-main/services/label-files';
import { readWithLoadersGl } from '../../helpers/las-readers';
import { readPcdWithLoadersGl } from '../../helpers/pcd-reader';
import { SiteClass } from '../../../src-common/classes';

describe.skipIf(!HAS_SHARED_DATA)('labels of a drive log (RELLIS-3D 000104)', () => {
  const fx = useAppServices({ workers: 1, prefix: 'thicket-labels-', project: 'labels.thicket' });
  let log = 0;

  // Expected from the files alone: per cell of the .bin, a hit where x, y, z are not all 0; its
  // class the .label's low 16 bits through the RELLIS-3D map.
  const bin = new Float32Array(readFileSync(dataFile('rellis3d/000104.bin')).buffer.slice(0));
  const raw = new Uint32Array(readFileSync(dataFile('rellis3d/000104.label')).buffer.slice(0));
  const expectedHits = new Map<number, number>();
  let hits = 0;
  for (let i = 0; i < raw.length; i++) {
    if (bin[4 * i] === 0 && bin[4 * i + 1] === 0 && bin[4 * i + 2] === 0) continue;
    hits++;
    const c = RELLIS3D_CLASS_MAP.get(raw[i]! & 0xffff) ?? 0;
    if (c !== 0) expectedHits.set(c, (expectedHits.get(c) ?? 0) + 1);
  }

  it('imports the scan; its returns come with the imported classes and a height above the local ground', async () => {
    const { services } = fx;
    const { job } = await services.call('logs.importFile', { path: dataFile('rellis3d/000104.bin'), profileId: 'os1-64-2048' } as never);
    const done = await services.whenJobSettled(job.id);
    expect(done.state, done.error ?? '').toBe('done');
    log = (done.result as { log: number }).log;
    const classes = await services.call('labels.classes', {});
    expect(classes.find((c) => c.id === SiteClass.ground)).toMatchObject({ name: 'ground', asprs: 2 });
    const cloud = await services.call('labels.cloud', { logId: log });
    expect(cloud.points).toBe(hits);
    expect(cloud.version).toBeNull();
    expect(cloud.classes.every((c) => c === 0)).toBe(true);
    for (let i = 1; i < cloud.points; i++) expect(cloud.rayIndex[i]! > cloud.rayIndex[i - 1]!).toBe(true);
    expect(cloud.rayIndex[cloud.points - 1]!).toBeLessThan(64 * 2048);
    // Most of a grass-and-trees scene is low; the canopy is metres up.
    const h = Array.from(cloud.heightAboveGround).sort((a, b) => a - b);
    expect(h[Math.floor(0.25 * h.length)]!).toBeLessThan(0.3);
    expect(h[h.length - 1]!).toBeGreaterThan(3);
  });

  it('imports the .label with the RELLIS-3D classes: per class the counts the files give, and every reader of the log sees them', async () => {
    const { services } = fx;
    const v = await services.call('labels.import', { logId: log, path: dataFile('rellis3d/000104.label'), classMapName: 'rellis3d' });
    expect(v).toMatchObject({ version: 1, source: 'import', points: hits, changed: null });
    expect(new Map(v.counts.map((c) => [c.class, c.points]))).toEqual(expectedHits);
    expect(expectedHits.get(SiteClass.grass)!).toBeGreaterThan(10_000);
    // The display cloud (a reader of the log's chunks that knows nothing of labels) shows them.
    const display = await services.call('logs.cloud', { id: log, budget: 2_000_000 });
    let grass = 0;
    for (const c of display.classId) if (c === SiteClass.grass) grass++;
    expect(grass).toBe(expectedHits.get(SiteClass.grass));
  });

  it('exports the labels to LAS as the project\'s class list codes them (LAS 1.2, read with loaders.gl)', async () => {
    const { services } = fx;
    const las = async (name: string) => {
      const path = join(fx.dir, name);
      const { job } = await services.call('export.start', { source: { kind: 'log', id: log }, format: 'las', path, force: false, lasVersion: '1.2' } as never);
      const done = await services.whenJobSettled(job.id);
      expect(done.state, done.error ?? '').toBe('done');
      return readWithLoadersGl(new Uint8Array(readFileSync(path)), 'laz-perf');
    };
    const count = (a: ArrayLike<number>, v: number) => Array.from(a).filter((x) => x === v).length;
    const before = await las('labelled.las');
    expect(count(before.classification, 2)).toBe(expectedHits.get(SiteClass.ground)); // ground → ASPRS 2
    expect(count(before.classification, 3)).toBe(expectedHits.get(SiteClass.grass)); // grass → low vegetation
    // The project recodes grass as ASPRS 17 (LAS 1.2 keeps 5 bits of class): the next export follows.
    const grass = (await services.call('labels.classes', {})).find((c) => c.id === SiteClass.grass)!;
    const list = await services.call('labels.saveClasses', { classes: [{ ...grass, asprs: 17 }, { id: 200, name: 'trail', color: '#aa7744', asprs: 65 }] });
    expect(list.find((c) => c.id === 200)).toMatchObject({ name: 'trail' });
    const after = await las('recoded.las');
    expect(count(after.classification, 17)).toBe(expectedHits.get(SiteClass.grass));
    expect(count(after.classification, 3)).toBe(0);
    await expectApiError(services.call('labels.saveClasses', { classes: [{ ...grass, name: 'ground' }] }), 'bad_input', 'two classes are named "ground"');
  });

  it('saves an edit as version 2, refuses an edit from a stale version, and compares the two', async () => {
    const { services } = fx;
    const cloud = await services.call('labels.cloud', { logId: log });
    expect(cloud.version).toBe(1);
    const classes = cloud.classes.slice(), instances = cloud.instances.slice();
    let changed = 0;
    for (let i = 0; i < 500; i++) {
      if (classes[i] !== SiteClass.rock) changed++;
      classes[i] = SiteClass.rock;
      instances[i] = 7;
    }
    const v2 = await services.call('labels.save', { logId: log, baseVersion: 1, classes, instances, entries: [], author: 'test', note: 'rocks' });
    expect(v2).toMatchObject({ version: 2, source: 'edit', author: 'test', objects: 1, changed: 500 });
    await expectApiError(services.call('labels.save', { logId: log, baseVersion: 1, classes, instances, entries: [], author: '', note: '' }), 'conflict', 'version 2');
    const cmp = await services.call('labels.compare', { logId: log, a: 1, b: 2 });
    expect(cmp).toMatchObject({ points: hits, classChanged: changed, objectChanged: 500 });
    const rock = cmp.perClass.find((c) => c.class === SiteClass.rock)!;
    expect(rock).toMatchObject({ a: expectedHits.get(SiteClass.rock) ?? 0, b: (expectedHits.get(SiteClass.rock) ?? 0) + changed });
    expect(cmp.overallAgreement).toBeCloseTo((hits - changed) / hits, 12);
    expect((await services.call('labels.versions', { logId: log })).map((x) => x.version)).toEqual([1, 2]);
    // An older version still reads as it was.
    const old = await services.call('labels.cloud', { logId: log, version: 1 });
    expect(old.classes[0]).toBe(cloud.classes[0]);
  });

  it('exports the newest labels to PCD as each point\'s `label` (PointXYZL), read back with loaders.gl', async () => {
    const { services } = fx;
    const path = join(fx.dir, 'labelled.pcd');
    const { job } = await services.call('export.start', { source: { kind: 'log', id: log }, format: 'pcd', path, force: false } as never);
    const done = await services.whenJobSettled(job.id);
    expect(done.state, done.error ?? '').toBe('done');
    const pcd = await readPcdWithLoadersGl(new Uint8Array(readFileSync(path)));
    expect(pcd.count).toBe(hits);
    expect(pcd.fields).toContain('label');
    // Expected from the files alone: the .label's class through the map, hit by hit in the scan's
    // order, but the 500 returns version 2 made rock.
    const want = new Uint8Array(hits), at = new Float32Array(3 * hits);
    for (let i = 0, k = 0; i < raw.length; i++) {
      if (bin[4 * i] === 0 && bin[4 * i + 1] === 0 && bin[4 * i + 2] === 0) continue;
      want[k] = k < 500 ? SiteClass.rock : RELLIS3D_CLASS_MAP.get(raw[i]! & 0xffff) ?? 0;
      at.set(bin.subarray(4 * i, 4 * i + 3), 3 * k);
      k++;
    }
    let differ = 0;
    for (let k = 0; k < hits; k++) if (pcd.label![k] !== want[k]) differ++;
    expect(differ).toBe(0);
    // The points are the scan's own (one scan at the identity pose), to float32 rounding.
    let worst = 0;
    for (let j = 0; j < 3 * hits; j++) worst = Math.max(worst, Math.abs(pcd.position[j]! - at[j]!));
    expect(worst).toBeLessThan(1e-4);
  });

  it('writes a .label and a Thicket JSON file that read back identical', async () => {
    const { services } = fx;
    const labelPath = join(fx.dir, 'out.label'), jsonPath = join(fx.dir, 'out.json');
    const out = await services.call('labels.export', { logId: log, path: labelPath, format: 'semantic-kitti', force: false });
    expect(out.bytes).toBe(4 * 64 * 2048);
    await expectApiError(services.call('labels.export', { logId: log, path: labelPath, format: 'semantic-kitti', force: false }), 'conflict', 'force');
    await services.call('labels.export', { logId: log, path: jsonPath, format: 'thicket-json', force: false });
    const v3 = await services.call('labels.import', { logId: log, path: labelPath });
    const v4 = await services.call('labels.import', { logId: log, path: jsonPath });
    for (const [a, b] of [[2, v3.version], [2, v4.version]] as const) {
      const cmp = await services.call('labels.compare', { logId: log, a, b });
      expect([cmp.classChanged, cmp.objectChanged]).toEqual([0, 0]);
    }
    // Byte for byte: the file written again from the re-imported version.
    const again = join(fx.dir, 'again.label');
    await services.call('labels.export', { logId: log, version: v3.version, path: again, format: 'semantic-kitti', force: false });
    expect(readFileSync(again).equals(readFileSync(labelPath))).toBe(true);
  });

  it('refuses bad files with the file, place and reason, and saves nothing', async () => {
    const { services } = fx;
    const before = (await services.call('labels.versions', { logId: log })).length;
    const short = join(fx.dir, 'short.label');
    writeFileSync(short, new Uint8Array(4 * 1000));
    await expectApiError(services.call('labels.import', { logId: log, path: short }), 'bad_input', /short\.label: 1000 labels; drive log \d+ has 131072 rays/);
    const odd = join(fx.dir, 'odd.label');
    writeFileSync(odd, new Uint8Array(7));
    await expectApiError(services.call('labels.import', { logId: log, path: odd }), 'bad_input', 'not a whole number of 4-byte labels');
    const map = join(fx.dir, 'map.yaml');
    writeFileSync(map, '3: grass\n4: oak tree\n');
    await expectApiError(services.call('labels.import', { logId: log, path: dataFile('rellis3d/000104.label'), classMap: map }), 'bad_input', /map\.yaml: line 2: no class "oak tree"/);
    const big = join(fx.dir, 'big.label');
    writeFileSync(big, new Uint8Array(4 * 64 * 2048).fill(0xff)); // class 65535 without a map
    await expectApiError(services.call('labels.import', { logId: log, path: big }), 'bad_input', 'class 65535');
    expect((await services.call('labels.versions', { logId: log })).length).toBe(before);
  });

  it('proposes labels as a job: ground near the local ground, clusters classed by size, with confidence', async () => {
    const { services } = fx;
    const { job } = await services.call('labels.propose', { logId: log, minHeight: 0.25 });
    const done = await services.whenJobSettled(job.id);
    expect(done.state, done.error ?? '').toBe('done');
    const r = done.result as { version: number; ground: number; objects: number };
    expect(r.ground).toBeGreaterThan(0.3 * hits);
    expect(r.objects).toBeGreaterThan(0);
    const cloud = await services.call('labels.cloud', { logId: log });
    expect(cloud.version).toBe(r.version);
    expect(cloud.entries.length).toBe(r.objects);
    let low = 0;
    for (let i = 0; i < cloud.points; i++) {
      expect(cloud.confidence[i]!).toBeGreaterThanOrEqual(0);
      expect(cloud.confidence[i]!).toBeLessThanOrEqual(1);
      if (cloud.classes[i] === SiteClass.ground && cloud.heightAboveGround[i]! > 0.25) low++;
    }
    expect(low).toBe(0);
    // Against the RELLIS-3D labels: most of what the dataset calls ground or grass is proposed ground.
    const cmp = await services.call('labels.compare', { logId: log, a: 1, b: r.version });
    expect(cmp.perClass.find((c) => c.class === SiteClass.ground)!.b).toBe(r.ground);
  });

  it('extracts primitives from the newest labels: their objects, whose ids the rays carry', async () => {
    const { services } = fx;
    const versions = await services.call('labels.versions', { logId: log });
    const labelled = versions.at(-1)!;
    expect(labelled.objects).toBeGreaterThan(0);
    const { job } = await services.call('fit.start', { logId: log });
    const first = await services.whenJobSettled(job.id);
    expect(first.state, first.error ?? '').toBe('done');
    const fitted = await services.whenJobSettled(Number(first.result!.replayJob));
    expect(fitted.state, fitted.error ?? '').toBe('done');
    const ex = await services.call('primitives.extract', { modelId: Number(fitted.result!.model) });
    const done = await services.whenJobSettled(ex.job.id);
    expect(done.state, done.error ?? '').toBe('done');
    expect(done.params).toMatchObject({ labelVersion: labelled.version, annotationId: null });
    const r = done.result as { segments: number; primitives: number };
    expect(r.primitives).toBeGreaterThan(0);
    expect(r.segments).toBeLessThanOrEqual(labelled.objects);
  }, 120_000);
});
