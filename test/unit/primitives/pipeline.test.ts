/**
 * The whole chain on the small reference site, in-process: simulate the training drive
 * (HDL-32E, mesh mode: like the demo's logs, but faster), fit it, extract primitives from its
 * annotation (the rays' ground-truth object ids), compose the test drive's annotation from
 * those primitives only, check every test entry got a primitive of its class or family, and
 * simulate one revolution of the test drive through the composed scene.
 */
import { describe, expect, it } from 'vitest';
import { buildReferenceSite } from '../../../src-worker/site/reference-site';
import { objectsInRange } from '../../../src-worker/site/reference-annotations';
import { builtinProfile } from '../../../src-common/builtin-profiles';
import { packetRays, revolutionPattern } from '../../../src-worker/sensors/scan-pattern';
import { packetDurationOf } from '../../../src-common/profile-timing';
import { Simulator } from '../../../src-worker/simulate/simulate';
import { createTrajectory } from '../../../src-worker/geometry/trajectory';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import { fitModel } from '../../../src-worker/fit/fit';
import { toFitChunk } from '../../../src-worker/fit/log-input';
import { resolveFitParams } from '../../../src-common/fit-params';
import type { PacketChunk } from '../../../src-common/packets';
import { SegmentCloudBuilder } from '../../../src-worker/primitives/segment-cloud';
import { GroundIndex, heightFunctionGrid } from '../../../src-worker/primitives/ground-index';
import { nonGroundMask, segmentsFromAnnotation, segmentsFromClusters, PRIMITIVE_CLASSES } from '../../../src-worker/primitives/segments';
import { extractPrimitives } from '../../../src-worker/primitives/extract';
import { composeScene } from '../../../src-worker/primitives/compose';
import { groundFromHeightGrid } from '../../../src-worker/primitives/compose-ground';
import { classFamily } from '../../../src-worker/primitives/classify';
import { referenceClassName } from '../../../src-common/classes';

const NO_HOOKS = { progress: () => {}, checkCancelled: () => {} };

describe('primitives pipeline on the small reference site', () => {
  it('fit the training drive, extract its primitives, compose the test drive\'s annotation', () => {
    const t0 = performance.now();
    const site = buildReferenceSite({ seed: 1, small: true });
    const profile = builtinProfile('hdl32e')!;
    const pattern = revolutionPattern(profile);
    const scene = createSceneQuery(site.data);
    const simulate = (k: number): PacketChunk[] => {
      const d = site.drives[k]!;
      const sim = new Simulator({ scene, profile, rays: (p) => packetRays(pattern, p), trajectory: createTrajectory(d.times, d.poses), seed: 7 + k, mode: 'mesh' });
      return [sim.simulatePackets(0, Math.floor(d.seconds / packetDurationOf(profile)))];
    };
    const train = simulate(0);
    const tSim = performance.now();

    const fit = fitModel({ chunks: train.map(toFitChunk), params: resolveFitParams({}), seed: 1, profileMaxRange: profile.range.max }, NO_HOOKS);
    const tFit = performance.now();

    const builder = new SegmentCloudBuilder({ cellSize: 0.1 });
    for (const c of train) builder.addChunk(c);
    const cloud = builder.finish();
    expect(cloud.hasObjectIds).toBe(true);
    const sensorHeight = profile.mount[2] ?? 0;
    const inRange = (k: number) => new Set(objectsInRange(site.annotations, site.drives[k]!.poses, profile.range.max, sensorHeight));
    const trainIds = inRange(0);
    const trainEntries = site.annotations.filter((a) => trainIds.has(a.id));
    const segs = segmentsFromAnnotation(cloud, trainEntries, { minPoints: 20 });
    const ground = new GroundIndex(fit.arrays.groundPositions);
    const lib = extractPrimitives(segs.segments, cloud, fit.arrays, { ground });
    const tExtract = performance.now();
    expect(lib.primitives.length).toBeGreaterThan(0);
    const libClasses = [...new Set(lib.primitives.map((p) => p.class))].sort((a, b) => a - b);

    // Automatic segmentation of the same cloud (no annotation): clusters with classes.
    const auto = segmentsFromClusters(cloud, nonGroundMask(cloud, ground), { tolerance: 0.5, minPoints: 20 });

    const testIds = inRange(1);
    const testEntries = site.annotations.filter((a) => testIds.has(a.id));
    const t = site.terrain;
    const groundGrid = heightFunctionGrid((x, y) => t.heightAt(x, y), { x0: -10, y0: -site.widthM / 2, x1: site.lengthM + 10, y1: site.widthM / 2 }, 1);
    const composed = composeScene(testEntries, lib.primitives, groundFromHeightGrid(groundGrid, { variance: fit.scalars.groundVariance }), {
      mode: 'hybrid', mahalanobisThreshold: fit.scalars.mahalanobisThreshold, voxelTau: fit.scalars.voxelTau,
    });
    const voxel = composeScene(testEntries, lib.primitives, groundFromHeightGrid(groundGrid), { mode: 'voxel', voxelTau: fit.scalars.voxelTau });
    const tCompose = performance.now();

    const wanted = testEntries.filter((e) => PRIMITIVE_CLASSES.includes(e.class));
    const placedIds = new Set(composed.plan.placements.map((p) => p.entryId));
    for (const e of wanted) {
      expect(placedIds.has(e.id)).toBe(true);
      for (const p of composed.plan.placements.filter((q) => q.entryId === e.id)) {
        expect(p.entryClass).toBe(e.class);
        expect(p.primitiveClass === e.class || classFamily(p.primitiveClass) === classFamily(e.class)).toBe(true);
      }
    }
    expect(composed.data.instanceCount).toBe(composed.plan.placements.length + 1);
    expect(voxel.plan.placements.length).toBeGreaterThan(0);

    // Rays simulated through the composed scene carry the test annotation's ids (or the ground's).
    const d = site.drives[1]!;
    const sim = new Simulator({ scene: createSceneQuery(composed.data), profile, rays: (p) => packetRays(pattern, p), trajectory: createTrajectory(d.times, d.poses), seed: 3, mode: 'hybrid' });
    const out = sim.simulatePackets(0, pattern.packetsPerRevolution); // one revolution
    const known = new Set([1, ...wanted.map((e) => e.id)]);
    let hits = 0, objectHits = 0;
    for (let i = 0; i < out.rayCount; i++) {
      if (!Number.isFinite(out.rayRange[i]!)) continue;
      hits++;
      expect(known.has(out.rayObject[i]!)).toBe(true);
      if (out.rayObject[i] !== 1) objectHits++;
    }
    expect(objectHits).toBeGreaterThan(0);

    // Table 4.2's columns for the extracted library: instances, mean ellipsoids, mean height.
    const table: Record<string, [number, number, number]> = {};
    for (const p of lib.primitives) {
      const row = (table[referenceClassName(p.class)] ??= [0, 0, 0]);
      row[0]++; row[1] += p.ellipsoids?.pHit.length ?? 0; row[2] += p.extents[2];
    }
    for (const row of Object.values(table)) { row[1] = Math.round(row[1] / row[0]); row[2] = +(row[2] / row[0]).toFixed(1); }

    // The numbers the report quotes.
    const counts = {
      trainRays: train.reduce((a, c) => a + c.rayCount, 0), cloudPoints: cloud.count,
      model: { triangles: fit.arrays.groundPHit.length, ellipsoids: fit.arrays.ellipsoidPHit.length, voxels: fit.arrays.voxelPermeability.length },
      trainEntries: trainEntries.filter((e) => PRIMITIVE_CLASSES.includes(e.class)).length, segments: segs.segments.length, unseen: segs.unseen.length,
      primitives: lib.primitives.length, cells: lib.primitives.filter((p) => p.source === 'patch-cell').length, skipped: lib.skipped.length,
      libraryClasses: libClasses.map(referenceClassName),
      autoSegments: auto.segments.map((s) => referenceClassName(s.class)),
      testEntries: wanted.length, placements: composed.plan.placements.length, fallbacks: composed.plan.fallbacks.map((f) => `${referenceClassName(f.from)}→${referenceClassName(f.to)}`),
      uniquePrimitives: composed.counts.uniquePrimitives, simHits: hits, simObjectHits: objectHits, table, skippedEntries: composed.plan.skipped.map((s) => referenceClassName(s.class)),
      ms: { simulate: Math.round(tSim - t0), fit: Math.round(tFit - tSim), extract: Math.round(tExtract - tFit), compose: Math.round(tCompose - tExtract) },
    };
    console.log(JSON.stringify(counts));
  }, 120_000);
});
