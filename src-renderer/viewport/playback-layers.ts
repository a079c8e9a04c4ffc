/**
 * What playback draws over the accumulated cloud: the trajectory and the sensor's current
 * position, the current sweep's points (larger, over everything, while the rest of the cloud is
 * dimmed) and the sweep's misses as faint rays. Each part is rebuilt only when its data object
 * changes, so moving the sensor along while playing costs one matrix update.
 */
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { PointStage } from './point-stage';
import { toLocal, type Centre } from './local-frame';
import { TrajectoryLayer } from './trajectory-layer';
import { MissRaysLayer } from './miss-rays-layer';

export interface ViewportOverlay {
  /** The sensor's path, world x, y, z per pose. */
  trajectory: Float64Array | null;
  /** Where the sensor is at the playback position (world). */
  sensor: [number, number, number] | null;
  /** Points to highlight (world x, y, z each) and their RGBA colours; the rest of the cloud dims while they show. */
  highlight: { positions: Float32Array; colors: Float32Array } | null;
  /** Miss rays, world segments of 6 numbers. */
  misses: Float32Array | null;
}

export const NO_OVERLAY: ViewportOverlay = { trajectory: null, sensor: null, highlight: null, misses: null };

/** How much of its colour the rest of the cloud keeps while a sweep is highlighted. */
const DIMMED = 0.32;
/** The highlighted points are drawn this much larger than the cloud's. */
const HIGHLIGHT_EXTRA_PX = 1.5;

export class PlaybackLayers {
  private readonly trajectory: TrajectoryLayer;
  private readonly misses: MissRaysLayer;
  private readonly highlightMaterial: StandardMaterial;
  private highlightMesh: Mesh | null = null;
  private shown: ViewportOverlay = NO_OVERLAY;
  private _highlightCount = 0;

  constructor(private readonly stage: PointStage) {
    this.trajectory = new TrajectoryLayer(stage.scene);
    this.misses = new MissRaysLayer(stage.scene);
    const m = new StandardMaterial('highlight', stage.scene);
    m.pointsCloud = true;
    m.disableLighting = true;
    m.emissiveColor = Color3.White();
    m.backFaceCulling = false;
    this.highlightMaterial = m;
    this.setPointSize(stage.material.pointSize);
  }

  get highlightCount(): number {
    return this._highlightCount;
  }

  get missCount(): number {
    return this.misses.count;
  }

  setPointSize(px: number): void {
    this.highlightMaterial.pointSize = px + HIGHLIGHT_EXTRA_PX;
  }

  /**
   * Show an overlay in the frame of the cloud centred at `centre`; `force` rebuilds every part
   * (the cloud, and so the centre, changed). `markerSize` sizes the sensor cross (metres).
   */
  apply(o: ViewportOverlay, centre: Centre, markerSize: number, force = false): void {
    const was = force ? NO_OVERLAY : this.shown;
    if (force || o.trajectory !== was.trajectory) this.trajectory.setPath(o.trajectory, centre);
    this.trajectory.setSensor(o.sensor, centre, markerSize);
    if (force || o.misses !== was.misses) this.misses.set(o.misses, centre);
    if (force || o.highlight !== was.highlight) this.setHighlight(o.highlight, centre);
    this.shown = o;
    // A layer's shader may still be compiling: draw again once everything is ready.
    void this.stage.drawn();
  }

  private setHighlight(h: ViewportOverlay['highlight'], centre: Centre): void {
    this.highlightMesh?.dispose(false, false);
    this.highlightMesh = null;
    this._highlightCount = 0;
    const n = h ? Math.floor(h.positions.length / 3) : 0;
    if (h && n > 0) {
      this.highlightMesh = this.stage.pointsMesh('highlight', toLocal(h.positions, centre), h.colors);
      this.highlightMesh.material = this.highlightMaterial;
      // Drawn after the cloud over a cleared depth buffer: the sweep shows through what is in front of it.
      this.highlightMesh.renderingGroupId = 1;
      this._highlightCount = n;
    }
    const dim = h ? DIMMED : 1;
    this.stage.material.emissiveColor = new Color3(dim, dim, dim);
  }

  /** Remove everything drawn (the cloud went away); the next apply rebuilds. */
  clear(): void {
    this.trajectory.dispose();
    this.misses.dispose();
    this.setHighlight(null, [0, 0, 0]);
    this.shown = NO_OVERLAY;
  }

  dispose(): void {
    this.clear();
    this.highlightMaterial.dispose();
  }
}
