/**
 * The 3D box tool's handle math (box-handles.ts): a handle dragged to where a point of the box's
 * axis shows on the screen moves the box by exactly that much, under a perspective camera from
 * above and from the side; the centre moves on the ground plane; the rotation handle turns it.
 */
import { describe, expect, it } from 'vitest';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { boxAround, dragBox, handlePositions, invert4, pickHandle, pointerRay, projectWorld, visibleHandles, MIN_SIDE } from '../../../src-renderer/components/labels/box-handles';
import type { BoxValues } from '../../../src-renderer/components/labels/label-edits';
import type { ScreenView } from '../../../src-common/label-selection';

const W = 1200, H = 800;
const ORIGIN = [500, 1000, 20];
const CENTRE = [3, -2, 1] as const;
/** A perspective camera (Babylon's frame: x, z-up-as-y) looking at the box from `eye` (world, relative to the origin). */
function viewFrom(eye: [number, number, number], target: [number, number, number], up = new Vector3(0, 1, 0)): ScreenView {
  const b = (p: [number, number, number]) => new Vector3(p[0] - CENTRE[0], p[2] - CENTRE[2], p[1] - CENTRE[1]);
  const m = Matrix.LookAtLH(b(eye), b(target), up).multiply(Matrix.PerspectiveFovLH(0.8, W / H, 0.1, 1000));
  return { matrix: Float64Array.from(m.m), width: W, height: H, centre: CENTRE };
}
const box: BoxValues = { center: [ORIGIN[0]! + 5, ORIGIN[1]! + 4, ORIGIN[2]! + 1], size: [4, 2, 2], yaw: 0.6 };
const oblique = viewFrom([-15, -20, 14], [5, 4, 1]);
const top = viewFrom([5, 4, 40], [5, 4, 0], new Vector3(0, 0, 1));
const world = (p: readonly number[], d: readonly number[], t: number) => [p[0]! + d[0]! * t, p[1]! + d[1]! * t, p[2]! + d[2]! * t];
const axisL = [Math.cos(box.yaw), Math.sin(box.yaw), 0];
const axisW = [-Math.sin(box.yaw), Math.cos(box.yaw), 0];

describe('box handles', () => {
  it('inverts the view: the ray under a projected point passes through it', () => {
    const inv = invert4(oblique.matrix)!;
    const id = new Float64Array(16);
    for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) for (let k = 0; k < 4; k++) id[r * 4 + c]! += oblique.matrix[r * 4 + k]! * inv[k * 4 + c]!;
    id.forEach((v, i) => expect(v).toBeCloseTo(i % 5 === 0 ? 1 : 0, 9));
    const p = [ORIGIN[0]! + 7, ORIGIN[1]! + 1, ORIGIN[2]! + 2];
    const s = projectWorld(p, oblique, ORIGIN)!;
    const ray = pointerRay(oblique, ORIGIN, s[0], s[1])!;
    const w = [p[0]! - ray.o[0], p[1]! - ray.o[1], p[2]! - ray.o[2]];
    const t = w[0]! * ray.d[0] + w[1]! * ray.d[1] + w[2]! * ray.d[2];
    expect(Math.hypot(w[0]! - t * ray.d[0], w[1]! - t * ray.d[1], w[2]! - t * ray.d[2])).toBeLessThan(1e-6);
  });

  for (const [name, view] of [['oblique', oblique], ['top', top]] as const) {
    it(`${name}: the +length face dragged 1.5 m out lengthens the box 1.5 m, the far face staying`, () => {
      const face = handlePositions(box)['+l'];
      const b = dragBox(box, '+l', view, ORIGIN, projectWorld(face, view, ORIGIN)!, projectWorld(world(face, axisL, 1.5), view, ORIGIN)!);
      expect(b.size[0]).toBeCloseTo(5.5, 6);
      expect(b.size[1]).toBe(2);
      expect(b.yaw).toBe(box.yaw);
      const far = (x: BoxValues) => handlePositions(x)['-l'];
      far(b).forEach((v, j) => expect(v).toBeCloseTo(far(box)[j]!, 6));
    });

    it(`${name}: the −width face dragged 0.5 m in narrows it, and never below ${MIN_SIDE} m`, () => {
      const face = handlePositions(box)['-w'];
      const from = projectWorld(face, view, ORIGIN)!;
      const b = dragBox(box, '-w', view, ORIGIN, from, projectWorld(world(face, axisW, 0.5), view, ORIGIN)!);
      expect(b.size[1]).toBeCloseTo(1.5, 6);
      const flat = dragBox(box, '-w', view, ORIGIN, from, projectWorld(world(face, axisW, 5), view, ORIGIN)!);
      expect(flat.size[1]).toBe(MIN_SIDE);
    });

    it(`${name}: the centre moves on the plane through it; the rotation handle turns the box`, () => {
      const c = box.center;
      const b = dragBox(box, 'centre', view, ORIGIN, projectWorld(c, view, ORIGIN)!, projectWorld([c[0] + 2, c[1] - 1, c[2]], view, ORIGIN)!);
      expect(b.center[0]).toBeCloseTo(c[0] + 2, 6);
      expect(b.center[1]).toBeCloseTo(c[1] - 1, 6);
      expect(b.center[2]).toBe(c[2]);
      expect(b.size).toEqual(box.size);
      // The handle carried a quarter turn about the centre, at its own height.
      const r = handlePositions(box).rotate;
      const [dx, dy] = [r[0] - c[0], r[1] - c[1]];
      const turned = dragBox(box, 'rotate', view, ORIGIN, projectWorld(r, view, ORIGIN)!, projectWorld([c[0] - dy, c[1] + dx, r[2]], view, ORIGIN)!);
      expect(turned.yaw).toBeCloseTo(box.yaw + Math.PI / 2, 6);
      expect(turned.center).toEqual(box.center);
    });
  }

  it('the +height face moves up in a side view', () => {
    const face = handlePositions(box)['+h'];
    const b = dragBox(box, '+h', oblique, ORIGIN, projectWorld(face, oblique, ORIGIN)!, projectWorld([face[0], face[1], face[2] + 1], oblique, ORIGIN)!);
    expect(b.size[2]).toBeCloseTo(3, 6);
    expect(b.center[2]).toBeCloseTo(box.center[2] + 0.5, 6);
  });

  it('picks the handle under the pointer; from above, the centre rather than the top and bottom faces', () => {
    for (const h of ['+l', '-w', 'rotate', 'centre'] as const) {
      const p = projectWorld(handlePositions(box)[h], oblique, ORIGIN)!;
      expect(pickHandle(box, oblique, ORIGIN, p[0] + 3, p[1] - 2)).toBe(h);
    }
    expect(pickHandle(box, oblique, ORIGIN, 5, 5)).toBeNull();
    const c = projectWorld(box.center, top, ORIGIN)!;
    expect(pickHandle(box, top, ORIGIN, c[0], c[1])).toBe('centre');
    expect(visibleHandles(box, top, ORIGIN).map(([h]) => h).sort()).toEqual(['+l', '+w', '-l', '-w', 'centre', 'rotate']);
    expect(visibleHandles(box, oblique, ORIGIN)).toHaveLength(8);
  });

  it('starts around points: their bounds, axis-aligned', () => {
    const pts = Float32Array.from([0, 0, 0, 2, 1, 3, -1, 4, 0.5, 9, 9, 9]);
    const b = boxAround(pts, [0, 1, 2], ORIGIN)!;
    expect(b).toEqual({ center: [ORIGIN[0]! + 0.5, ORIGIN[1]! + 2, ORIGIN[2]! + 1.5], size: [3, 4, 3], yaw: 0 });
    expect(boxAround(pts, [], ORIGIN)).toBeNull();
  });
});
