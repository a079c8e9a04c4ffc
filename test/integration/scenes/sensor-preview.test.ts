/**
 * The scene editor's sensor preview through the API (scenes.sensorPreview; docs/design.md,
 * *Scene editor*): one revolution over unsaved placements, in the world frame, from the sensor at
 * its mount on the ground; the scene built once and kept while only the vehicle moves; the same
 * request, the same points; bad requests refused with the reason, nothing stored.
 */
import { describe, expect, it } from 'vitest';
import { expectApiError, useAppServices } from '../../helpers/app-services';
import type { PrimitiveInfo, Request } from '../../../src-main/api/contract';
import { SiteClass } from '../../../src-common/classes';

describe('the sensor preview (scenes.sensorPreview)', () => {
  const fx = useAppServices({ workers: 1, prefix: 'thicket-preview-', project: 'preview.thicket' });
  let tree: PrimitiveInfo;
  const extent = { x0: -20, y0: -20, x1: 20, y1: 20 };
  const request = (over: Partial<Request<'scenes.sensorPreview'>> = {}): Request<'scenes.sensorPreview'> => ({
    mode: 'mesh',
    terrain: { kind: 'flat', z: 1, extent },
    placements: [{ primitiveId: tree.id, x: 8, y: 0, yaw: 0, scale: 1 }],
    profileId: 'vlp16',
    mount: { height: 2 },
    vehicle: { x: 0, y: 0, yawDeg: 0 },
    ...over,
  });

  it('sees the ground and a tree placed but not saved, from the sensor on its mount', async () => {
    await fx.services.call('primitives.generateMesh', { seed: 3, variants: 1 });
    tree = (await fx.services.call('primitives.list', {})).find((p) => p.class === SiteClass.mediumTree)!;
    const scenesBefore = (await fx.services.call('scenes.list', {})).length;
    const a = await fx.services.call('scenes.sensorPreview', request());
    expect(a.built).toBe(true);
    // A VLP-16 revolution at 10 Hz: 16 lasers fired every 55.296 µs for 0.1 s, the last firing begun included.
    expect(a.rays).toBe(16 * Math.ceil(0.1 / 55.296e-6));
    expect(a.hits).toBeGreaterThan(1000);
    expect(a.xyz.length).toBe(3 * a.hits);
    // The sensor is 2 m above the flat ground at z = 1.
    expect(a.groundZ).toBeCloseTo(1, 9);
    expect(a.sensor[0]).toBeCloseTo(0, 6);
    expect(a.sensor[1]).toBeCloseTo(0, 6);
    expect(a.sensor[2]).toBeCloseTo(3, 6);
    // Ground returns lie on z = 1; the tree's are near x = 8, above the ground.
    const classes = new Map<number, number>();
    let treeNear = 0, groundOff = 0;
    for (let i = 0; i < a.hits; i++) {
      const c = a.classId[i]!;
      classes.set(c, (classes.get(c) ?? 0) + 1);
      const x = a.xyz[3 * i]!, y = a.xyz[3 * i + 1]!, z = a.xyz[3 * i + 2]!;
      if (c === SiteClass.mediumTree && Math.hypot(x - 8, y) < Math.max(tree.extents[0], tree.extents[1]) && z > 1) treeNear++;
      if (c === SiteClass.ground && Math.abs(z - 1) > 0.05) groundOff++;
    }
    expect(classes.get(SiteClass.ground)).toBeGreaterThan(500);
    expect(classes.get(SiteClass.mediumTree)).toBeGreaterThan(20);
    expect(treeNear).toBe(classes.get(SiteClass.mediumTree));
    expect(groundOff).toBe(0);
    expect((await fx.services.call('scenes.list', {})).length).toBe(scenesBefore);

    // Moving the vehicle re-simulates over the kept scene; the same request gives the same points.
    const b = await fx.services.call('scenes.sensorPreview', request({ vehicle: { x: 4, y: 2, yawDeg: 90 } }));
    expect(b.built).toBe(false);
    expect(b.sensor[0]).toBeCloseTo(4, 6);
    expect(b.sensor[1]).toBeCloseTo(2, 6);
    const c = await fx.services.call('scenes.sensorPreview', request());
    expect(c.built).toBe(false);
    expect(Array.from(c.xyz)).toEqual(Array.from(a.xyz));
    // Another placement is another scene: built again.
    const d = await fx.services.call('scenes.sensorPreview', request({ placements: [{ primitiveId: tree.id, x: -8, y: 0, yaw: 0, scale: 1 }] }));
    expect(d.built).toBe(true);
  }, 120_000);

  it('refuses a vehicle off the terrain, a bad placement and an unknown profile', async () => {
    const off = await expectApiError(fx.services.call('scenes.sensorPreview', request({ vehicle: { x: 50, y: 0, yawDeg: 0 } })), 'bad_input');
    expect(off.message).toMatch(/off the terrain/);
    const bad = await expectApiError(fx.services.call('scenes.sensorPreview', request({ placements: [{ primitiveId: 99_999, x: 0, y: 0, yaw: 0, scale: 1 }] })), 'bad_input');
    expect(bad.message).toMatch(/placement 1/);
    await expectApiError(fx.services.call('scenes.sensorPreview', request({ profileId: 'no-such-sensor' })), 'not_found');
  }, 60_000);
});
