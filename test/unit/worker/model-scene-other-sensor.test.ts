import { describe, expect, it } from 'vitest';
import { asOtherSensor } from '../../../src-worker/tasks/model-scene';
import type { ModelArrays } from '../../../src-common/fitted-model';

const base = {
  groundPositions: new Float32Array(18), groundPHit: Float32Array.of(0.4, 0.9), groundBlock: new Int32Array(2), groundHits: Uint32Array.of(2, 9), groundMisses: Uint32Array.of(3, 1),
  ellipsoidMeans: new Float64Array(0), ellipsoidCovariances: new Float64Array(0), ellipsoidPHit: new Float32Array(0), ellipsoidBlock: new Int32Array(0), ellipsoidPoints: new Uint32Array(0), ellipsoidHits: new Uint32Array(0), ellipsoidMisses: new Uint32Array(0),
  voxelMeans: new Float64Array(0), voxelCovariances: new Float64Array(0), voxelPermeability: new Float32Array(0), voxelBlock: new Int32Array(0), voxelPoints: new Uint32Array(0), voxelEnds: new Uint32Array(0), voxelPasses: new Uint32Array(0),
} satisfies ModelArrays;

describe('a fitted model as another sensor sees it', () => {
  it('reads the ground from the rays that returned, and takes the no-return passes out of its cells', () => {
    const a: ModelArrays = {
      ...base,
      groundCellStart: Uint32Array.of(0, 2, 3), groundCellKey: Uint16Array.of(1, 4, 0), groundCellHits: Uint32Array.of(1, 1, 9), groundCellPasses: Uint32Array.of(2, 1, 1),
      groundPHitReturned: Float32Array.of(0.7, 0.95), groundCellNoReturns: Uint32Array.of(2, 0, 1),
    };
    const o = asOtherSensor(a);
    expect(Array.from(o.groundPHit)).toEqual([Math.fround(0.7), Math.fround(0.95)]);
    expect(Array.from(o.groundCellPasses!)).toEqual([0, 1, 0]);
    expect(Array.from(a.groundCellPasses!)).toEqual([2, 1, 1]); // the stored arrays are not changed
    expect(Array.from(a.groundPHit)).toEqual([Math.fround(0.4), Math.fround(0.9)]);
  });

  it('reads the ellipsoids from the passes of rays that returned too', () => {
    const a: ModelArrays = {
      ...base,
      ellipsoidMeans: new Float64Array(3), ellipsoidCovariances: Float64Array.of(1, 0, 0, 1, 0, 1), ellipsoidPHit: Float32Array.of(0.3),
      ellipsoidBlock: new Int32Array(1), ellipsoidPoints: Uint32Array.of(9), ellipsoidHits: Uint32Array.of(4), ellipsoidMisses: Uint32Array.of(8),
      ellipsoidCellStart: Uint32Array.of(0, 2), ellipsoidCellKey: Uint16Array.of(7, 300), ellipsoidCellHits: Uint32Array.of(4, 0), ellipsoidCellPasses: Uint32Array.of(3, 5),
      ellipsoidPHitReturned: Float32Array.of(0.6), ellipsoidCellNoReturns: Uint32Array.of(3, 1),
    };
    const o = asOtherSensor(a);
    expect(Array.from(o.ellipsoidPHit)).toEqual([Math.fround(0.6)]);
    expect(Array.from(o.ellipsoidCellPasses!)).toEqual([0, 4]);
    expect(o.groundPHit).toBe(a.groundPHit); // no ground reading kept apart: unchanged
  });

  it('leaves a model that does not keep them apart as it is', () => {
    expect(asOtherSensor(base)).toBe(base);
  });
});
