import { describe, expect, it } from 'vitest';
import type { AnnotationInfo, DriveLogInfo, ModelInfo, PrimitiveInfo, ScenePreviewData } from '../../../src-main/api/contract';
import {
  NO_FILTER,
  annotationOptions,
  classOptions,
  defaultExtractForm,
  defaultMeshForm,
  extractRequest,
  filterPrimitives,
  formatElementCounts,
  formatExtents,
  isFiltered,
  meshRequest,
  primitiveFacts,
  provenance,
} from '../../../src-renderer/components/primitives/primitive-format';
import { objectClasses, placementRows, previewNote } from '../../../src-renderer/components/primitives/scene-placements';

const info = (id: number, cls: number, label: string, extents: [number, number, number], library: 'hybrid' | 'mesh' = 'hybrid', over: Partial<PrimitiveInfo> = {}): PrimitiveInfo => ({
  id,
  class: cls,
  label,
  extents,
  library,
  source: library === 'mesh' ? 'procedural' : 'object',
  modelId: library === 'mesh' ? null : 1,
  sourceLogId: library === 'mesh' ? null : 3,
  counts: { ellipsoids: library === 'mesh' ? 0 : 12, voxels: 0, triangles: library === 'mesh' ? 512 : 0, points: 0 },
  origin: library === 'mesh' ? { seed: 4 } : { segmentId: 5, cell: [1, 2], annotationId: 2, pose: [1, 2, 3, 0, 0, Math.sin(Math.PI / 4), Math.cos(Math.PI / 4)] },
  createdAt: '',
  ...over,
});

const LIB = [
  info(1, 4, 'small shrub', [2, 2, 2.1]),
  info(2, 6, 'large shrub', [2, 2, 5.4]),
  info(3, 7, 'small tree', [3, 3, 5.9]),
  info(4, 4, 'small shrub', [2.4, 2.6, 2], 'mesh'),
  info(5, 9, 'large tree', [8, 7, 13.4], 'mesh'),
];

describe('filterPrimitives', () => {
  it('filters by library, class, height range and footprint', () => {
    expect(filterPrimitives(LIB, NO_FILTER)).toHaveLength(5);
    expect(isFiltered(NO_FILTER)).toBe(false);
    expect(filterPrimitives(LIB, { ...NO_FILTER, library: 'mesh' }).map((p) => p.id)).toEqual([4, 5]);
    expect(filterPrimitives(LIB, { ...NO_FILTER, classes: [4] }).map((p) => p.id)).toEqual([1, 4]);
    expect(filterPrimitives(LIB, { ...NO_FILTER, classes: [4], library: 'hybrid' }).map((p) => p.id)).toEqual([1]);
    // Bounds are inclusive.
    expect(filterPrimitives(LIB, { ...NO_FILTER, minHeight: 2.1, maxHeight: 5.9 }).map((p) => p.id)).toEqual([1, 2, 3]);
    expect(filterPrimitives(LIB, { ...NO_FILTER, maxFootprint: 2.5 }).map((p) => p.id)).toEqual([1, 2]);
    expect(isFiltered({ ...NO_FILTER, maxHeight: 3 })).toBe(true);
  });

  it('offers the classes present, by id, with counts', () => {
    expect(classOptions(LIB)).toEqual([
      { value: 4, label: 'small shrub (2)' },
      { value: 6, label: 'large shrub (1)' },
      { value: 7, label: 'small tree (1)' },
      { value: 9, label: 'large tree (1)' },
    ]);
  });
});

describe('labels', () => {
  const logs = [{ id: 3, name: 'training drive' }] as DriveLogInfo[];
  const models = [{ id: 1, name: 'Training model', sourceLogId: 3 }] as ModelInfo[];
  const annotations = [
    { id: 2, name: 'Training labels', logId: 3, count: 11, createdAt: '' },
    { id: 9, name: 'Other', logId: 8, count: 4, createdAt: '' },
  ] as AnnotationInfo[];

  it('formats extents and element counts', () => {
    expect(formatExtents([2.0089, 12.4175, 107.2])).toBe('2.01 × 12.4 × 107 m');
    expect(formatElementCounts({ ellipsoids: 8, voxels: 3, triangles: 0, points: 1160 })).toBe('8 ell · 3 vox · 1,160 pts');
    expect(formatElementCounts({ ellipsoids: 0, voxels: 0, triangles: 0, points: 0 })).toBe('—');
  });

  it('says where a primitive came from', () => {
    expect(provenance(LIB[0]!, logs, models)).toBe('training drive · model Training model');
    expect(provenance(LIB[3]!, logs, models)).toBe('seed 4');
    expect(provenance(info(6, 4, 'x', [1, 1, 1], 'mesh', { origin: { seed: 2, annotationId: 2 } }), logs, models)).toBe('seed 2, sized from annotation #2');
    const facts = Object.fromEntries(primitiveFacts(LIB[0]!, logs, models, annotations));
    expect(facts).toMatchObject({ Class: 'small shrub (4)', 'Drive log': 'training drive', Model: 'Training model', Annotation: 'Training labels', 'Patch cell': '[1, 2]', Segment: 'entry 5' });
    expect(facts['Extracted at']).toBe('1.0, 2.0, 3.0 m · yaw 90°');
  });

  it('lists the model log’s annotations first', () => {
    expect(annotationOptions(annotations, models[0]!).map((o) => o.value)).toEqual([2, 9]);
    expect(annotationOptions([...annotations].reverse(), models[0]!).map((o) => o.value)).toEqual([2, 9]);
    expect(annotationOptions(annotations, models[0]!)[0]!.label).toContain('this log');
  });
});

describe('form requests', () => {
  it('extract: needs a model; auto-segmentation drops the annotation; checks the cell size', () => {
    expect(extractRequest(defaultExtractForm()).ok).toBe(false);
    expect(extractRequest({ ...defaultExtractForm(), modelId: 1, annotationId: 2 })).toEqual({ ok: true, value: { modelId: 1, annotationId: 2, autoSegment: false, patchCell: 2 } });
    expect(extractRequest({ ...defaultExtractForm(), modelId: 1, annotationId: 2, autoSegment: true })).toEqual({ ok: true, value: { modelId: 1, autoSegment: true, patchCell: 2 } });
    expect(extractRequest({ ...defaultExtractForm(), modelId: 1, patchCell: 0.2 }).ok).toBe(false);
  });

  it('mesh library: variants or an annotation', () => {
    expect(meshRequest(defaultMeshForm())).toEqual({ ok: true, value: { seed: 1, variants: 3 } });
    expect(meshRequest({ ...defaultMeshForm(), sizing: 'annotation' }).ok).toBe(false);
    expect(meshRequest({ ...defaultMeshForm(), sizing: 'annotation', annotationId: 2, seed: 5 })).toEqual({ ok: true, value: { seed: 5, annotationId: 2 } });
    expect(meshRequest({ ...defaultMeshForm(), variants: 21 }).ok).toBe(false);
  });
});

describe('scene placements', () => {
  const preview = {
    centre: [0, 0, 0],
    bounds: { min: [0, 0, 0], max: [1, 1, 1] },
    instances: 5,
    triangles: { positions: new Float32Array(27), classIds: Uint8Array.from([1, 1, 5]), objectIds: Int32Array.from([1, 1, 5]), kinds: Uint8Array.from([1, 1, 0]), total: 300 },
    gaussians: { means: new Float32Array(6), covariances: new Float32Array(12), pHit: new Float32Array(2), kinds: Uint8Array.from([2, 2]), classIds: Uint8Array.from([7, 7]), objectIds: Int32Array.from([8, 8]), total: 2 },
    mahalanobisThreshold: 3,
    voxelTau: 2,
  } as ScenePreviewData;

  it('groups placements per entry, folding patch cells, with the class the preview carries', () => {
    const meta = {
      kind: 'composed',
      placements: [
        { entry: 8, primitive: 40, fallback: false },
        { entry: 5, primitive: 15, fallback: false, cell: [0, 0] },
        { entry: 5, primitive: 16, fallback: true, cell: [0, 1] },
        { entry: 5, primitive: 15, fallback: false, cell: [1, 0] },
        { bogus: true },
      ],
    };
    const rows = placementRows(meta, objectClasses(preview), { 5: 'medium shrub', 7: 'small tree' });
    expect(rows).toEqual([
      { entry: 5, classId: 5, className: 'medium shrub', primitives: [15, 16], cells: 3, fallback: true },
      { entry: 8, classId: 7, className: 'small tree', primitives: [40], cells: 0, fallback: false },
    ]);
    expect(placementRows({ kind: 'offroad' }, new Map(), {})).toEqual([]);
  });

  it('notes decimation', () => {
    expect(previewNote(preview)).toBe('3 of 300 triangles · 2 Gaussians · 5 instances');
  });
});
