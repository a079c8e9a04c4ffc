/**
 * The x/y/z tripod the 3D views draw (x red, y green, z blue — the colours of the status line's
 * axis letters). `origin` is in Babylon axes; the legs point along Thicket's +x, +y and +z, which
 * are Babylon's +x, +z and +y (see point-stage.ts on frames).
 */
import type { Scene } from '@babylonjs/core/scene';
import { Color4 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';

const RED = new Color4(0.95, 0.3, 0.3, 1);
const GREEN = new Color4(0.35, 0.85, 0.4, 1);
const BLUE = new Color4(0.35, 0.55, 1, 1);

export function axisTripod(scene: Scene, origin: Vector3, length: number): LinesMesh {
  const o = origin;
  const axes = CreateLineSystem(
    'axes',
    {
      lines: [
        [o, o.add(new Vector3(length, 0, 0))],
        [o, o.add(new Vector3(0, 0, length))],
        [o, o.add(new Vector3(0, length, 0))],
      ],
      colors: [
        [RED, RED],
        [GREEN, GREEN],
        [BLUE, BLUE],
      ],
    },
    scene,
  );
  axes.isPickable = false;
  return axes;
}
