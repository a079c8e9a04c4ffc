/**
 * A Babylon line list from flat typed arrays: vertex pairs (2k, 2k + 1) or any index pairs, one
 * colour and alpha for all. Built straight from the arrays (CreateLineSystem wants a Vector3 per
 * vertex, which for 100 k miss rays is 200 k objects per sweep).
 */
import type { Scene } from '@babylonjs/core/scene';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';

export interface LineStyle {
  color: [number, number, number];
  /** Below 1 the lines blend with what is behind them. */
  alpha: number;
}

/** `positions` in Babylon-local axes; `indices` pairs of vertex indices (default: consecutive pairs). */
export function createLineList(name: string, scene: Scene, positions: Float32Array, style: LineStyle, indices?: Uint32Array): LinesMesh {
  const blended = style.alpha < 1;
  const mesh = new LinesMesh(name, scene, null, undefined, undefined, false, blended);
  mesh.color = new Color3(...style.color);
  mesh.alpha = style.alpha;
  mesh.isPickable = false;
  const n = positions.length / 3;
  if (n >= 2) {
    const data = new VertexData();
    data.positions = positions;
    data.indices = indices ?? Uint32Array.from({ length: n - (n % 2) }, (_, i) => i);
    data.applyToMesh(mesh);
  }
  return mesh;
}

/** Indices joining n vertices into one polyline: (0,1), (1,2), … */
export function polylineIndices(n: number): Uint32Array {
  const out = new Uint32Array(2 * Math.max(0, n - 1));
  for (let i = 0; i + 1 < n; i++) {
    out[2 * i] = i;
    out[2 * i + 1] = i + 1;
  }
  return out;
}
