import { describe, expect, it } from 'vitest';
import { sceneFacts, sceneHeadline } from '../../../src-renderer/components/scenes/scene-format';

describe('an authored scene on the Scenes page', () => {
  const meta = {
    kind: 'authored', mode: 'hybrid', terrain: { kind: 'flat', z: 0, extent: { x0: -25, y0: -25, x1: 25, y1: 25 } },
    ground: 'flat at 0 m over [-25, 25] × [-25, 25]', editedFrom: null, objects: 12, triangles: 20_000, ellipsoids: 96, voxels: 0,
    uniquePrimitives: 5, memoryBytes: 1_363_148, buildMs: 380, bounds: { min: [-25, -25, 0], max: [25, 25, 2.2] },
    placements: [{ primitiveId: 1, x: 8, y: 5, yaw: 0, scale: 1 }],
  };

  it('lists its objects in the table and its ground in words (not the terrain spec’s own kind)', () => {
    expect(sceneHeadline(meta)).toBe('20 k triangles · 96 ellipsoids · 12 objects');
    const facts = sceneFacts(meta);
    expect(facts.filter(([k]) => k === 'Kind')).toEqual([['Kind', 'authored']]);
    expect(Object.fromEntries(facts)).toMatchObject({ Ground: 'flat at 0 m over [-25, 25] × [-25, 25]', Objects: '12', Memory: '1.3 MiB' });
  });
});
