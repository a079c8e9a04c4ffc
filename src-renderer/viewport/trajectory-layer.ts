/**
 * The sensor's path through the log as a line, and where the sensor is now (the playback
 * position) as a small upright cross drawn over everything, so it stays visible inside a cloud.
 */
import type { Scene } from '@babylonjs/core/scene';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import { createLineList, polylineIndices } from './line-list';
import { toLocal, type Centre } from './local-frame';

const PATH = { color: [0.98, 0.74, 0.2] as [number, number, number], alpha: 1 };
const MARKER = { color: [1, 1, 1] as [number, number, number], alpha: 1 };

export class TrajectoryLayer {
  private path: LinesMesh | null = null;
  private marker: LinesMesh | null = null;
  private markerSize = 0;

  constructor(private readonly scene: Scene) {}

  /** The path through the poses (world x, y, z each); null removes it. */
  setPath(positions: Float64Array | null, centre: Centre): void {
    this.path?.dispose();
    this.path = null;
    if (!positions || positions.length < 6) return;
    const local = toLocal(positions, centre);
    this.path = createLineList('trajectory', this.scene, local, PATH, polylineIndices(local.length / 3));
    this.path.freezeWorldMatrix();
  }

  /** The sensor's current position (world), the cross `size` metres across; null hides it. */
  setSensor(position: readonly [number, number, number] | null, centre: Centre, size: number): void {
    if (!position) {
      this.marker?.setEnabled(false);
      return;
    }
    if (!this.marker || Math.abs(size - this.markerSize) > 1e-9) {
      this.marker?.dispose();
      const h = size / 2;
      // Babylon axes: y is up. A cross in the ground plane and a mast up from it.
      const lines = new Float32Array([-h, 0, 0, h, 0, 0, 0, 0, -h, 0, 0, h, 0, 0, 0, 0, size, 0]);
      this.marker = createLineList('sensor', this.scene, lines, MARKER);
      this.marker.renderingGroupId = 1;
      this.markerSize = size;
    }
    const [x, y, z] = toLocal(position, centre);
    this.marker.position.set(x!, y!, z!);
    this.marker.setEnabled(true);
  }

  get hasPath(): boolean {
    return this.path !== null;
  }

  dispose(): void {
    this.path?.dispose();
    this.marker?.dispose();
    this.path = null;
    this.marker = null;
  }
}
