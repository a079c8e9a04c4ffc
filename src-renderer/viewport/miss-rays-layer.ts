/**
 * Misses (rays with no return) as faint blue rays from the sensor: blended at low alpha so a
 * dense fan reads as a haze where the sensor saw nothing, without hiding the points.
 */
import type { Scene } from '@babylonjs/core/scene';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import { createLineList } from './line-list';
import { toLocal, type Centre } from './local-frame';

const STYLE = { color: [0.45, 0.65, 1] as [number, number, number], alpha: 0.06 };

export class MissRaysLayer {
  private mesh: LinesMesh | null = null;
  private _count = 0;

  constructor(private readonly scene: Scene) {}

  /** World segments, 6 numbers each (start x, y, z then end x, y, z); null removes them. */
  set(segments: Float32Array | null, centre: Centre): void {
    this.mesh?.dispose();
    this.mesh = null;
    this._count = 0;
    if (!segments || segments.length < 6) return;
    this.mesh = createLineList('misses', this.scene, toLocal(segments, centre), STYLE);
    this.mesh.freezeWorldMatrix();
    this._count = Math.floor(segments.length / 6);
  }

  /** Rays drawn. */
  get count(): number {
    return this._count;
  }

  dispose(): void {
    this.set(null, [0, 0, 0]);
  }
}
