/**
 * The Label page's Babylon scene: the shown (decimated) points as one unindexed points mesh
 * (viewport/point-stage.ts), the objects' oriented boxes as one line list, and an orbit camera.
 * While a selection tool is active the left button belongs to the tool: the camera then rotates
 * with the middle button and pans with the right one. Positions come in Thicket world axes
 * relative to the cloud's origin and are re-centred and swapped to Babylon's axes here
 * (docs/design.md, Renderer); `screenView()` gives the selection code the same frame.
 */
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import type { ArcRotateCameraPointersInput } from '@babylonjs/core/Cameras/Inputs/arcRotateCameraPointersInput';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import { PointStage } from '../../viewport/point-stage';
import { createLineList } from '../../viewport/line-list';
import { toLocal, type Centre } from '../../viewport/local-frame';
import type { ScreenView } from '../../../src-common/label-selection';
import { boxCorners, type ObjectBox } from './object-boxes';
import type { BoxValues } from './label-edits';

const BOX_EDGES = [0, 1, 1, 2, 2, 3, 3, 0, 4, 5, 5, 6, 6, 7, 7, 4, 0, 4, 1, 5, 2, 6, 3, 7];

export class LabelScene {
  private readonly stage: PointStage;
  private readonly orbit: ArcRotateCamera;
  private mesh: Mesh | null = null;
  private boxes: LinesMesh | null = null;
  /** The 3D box tool's box (box-handles.ts), drawn apart from the objects' boxes. */
  private editBox: LinesMesh | null = null;
  private centre: Centre = [0, 0, 0];
  private size: [number, number, number] = [10, 10, 10];
  private _pointCount = 0;

  constructor(private readonly canvas: HTMLCanvasElement) {
    this.stage = new PointStage(canvas, ['pointerdown', 'pointermove', 'pointerup', 'wheel', 'keydown']);
    this.orbit = new ArcRotateCamera('orbit', -Math.PI / 2 - 0.6, 0.95, 50, Vector3.Zero(), this.stage.scene);
    this.orbit.wheelDeltaPercentage = 0.02;
    this.orbit.upperBetaLimit = Math.PI * 0.56;
    this.orbit.keysUp = [];
    this.orbit.keysDown = [];
    this.orbit.keysLeft = [];
    this.orbit.keysRight = [];
    this.orbit.attachControl(true);
    this.stage.follow(this.orbit);
  }

  private get pointers(): ArcRotateCameraPointersInput {
    return this.orbit.inputs.attached.pointers as ArcRotateCameraPointersInput;
  }

  get pointCount(): number {
    return this._pointCount;
  }

  /** A selection tool owns the left button (the camera keeps middle and right), or the camera has all. */
  setToolActive(active: boolean): void {
    this.pointers.buttons = active ? [1, 2] : [0, 1, 2];
  }

  /** Show points: `positions` world x, y, z relative to the cloud's origin; `bounds` of the whole cloud (so the frame does not jump between sweeps). */
  async setCloud(positions: Float32Array, colors: Float32Array, bounds: { min: number[]; max: number[] }, reframe: boolean): Promise<void> {
    this.mesh?.dispose(false, false);
    this.mesh = null;
    this.centre = [0, 1, 2].map((a) => (bounds.min[a]! + bounds.max[a]!) / 2) as unknown as Centre;
    this.size = [0, 1, 2].map((a) => bounds.max[a]! - bounds.min[a]!) as [number, number, number];
    this.mesh = this.stage.pointsMesh('labels', toLocal(positions, this.centre), colors, true);
    this._pointCount = positions.length / 3;
    if (reframe) this.frame();
    await this.stage.drawn();
  }

  setColors(colors: Float32Array): void {
    if (!this.mesh || colors.length !== this._pointCount * 4) return;
    this.mesh.updateVerticesData('color', colors);
    this.stage.requestRender();
  }

  setPointSize(px: number): void {
    this.stage.material.pointSize = px;
    this.stage.requestRender();
  }

  /** Draw these objects' boxes (world x, y, z minus `origin`). */
  setBoxes(boxes: readonly ObjectBox[], origin: readonly [number, number, number]): void {
    this.boxes?.dispose();
    this.boxes = boxes.length ? this.boxLines('boxes', boxes, origin, [1, 0.85, 0.3]) : null;
    this.stage.requestRender();
  }

  /** Draw the 3D box tool's box (magenta, as the selection shapes), or none. */
  setEditBox(box: BoxValues | null, origin: readonly [number, number, number]): void {
    this.editBox?.dispose();
    this.editBox = box ? this.boxLines('edit-box', [box], origin, [1, 0.2, 0.75]) : null;
    // Over the points and the objects' boxes (a rendering group of its own is drawn last, on a cleared depth).
    if (this.editBox) this.editBox.renderingGroupId = 1;
    this.stage.requestRender();
  }

  private boxLines(name: string, boxes: readonly BoxValues[], origin: readonly [number, number, number], color: [number, number, number]): LinesMesh {
    const xyz = new Float32Array(boxes.length * 8 * 3);
    const idx = new Uint32Array(boxes.length * BOX_EDGES.length);
    boxes.forEach((b, k) => {
      boxCorners(b).forEach((c, j) => xyz.set([c[0] - origin[0], c[1] - origin[1], c[2] - origin[2]], (k * 8 + j) * 3));
      BOX_EDGES.forEach((e, j) => (idx[k * BOX_EDGES.length + j] = k * 8 + e));
    });
    return createLineList(name, this.stage.scene, toLocal(xyz, this.centre), { color, alpha: 0.9 }, idx);
  }

  /** Called after every frame drawn (the overlay's handles follow the camera); returns the unsubscriber. */
  onRendered(fn: () => void): () => void {
    const o = this.stage.scene.onAfterRenderObservable.add(fn);
    return () => this.stage.scene.onAfterRenderObservable.remove(o);
  }

  /** The point the camera orbits, world x, y, z minus the cloud's origin. */
  target(): [number, number, number] {
    const t = this.orbit.target;
    return [t.x + this.centre[0], t.z + this.centre[1], t.y + this.centre[2]];
  }

  /** The camera's view-projection and the canvas size, for projecting every point (src-common/label-selection.ts). */
  screenView(): ScreenView {
    const m = this.orbit.getViewMatrix().multiply(this.orbit.getProjectionMatrix());
    return { matrix: Float64Array.from(m.m), width: this.canvas.clientWidth, height: this.canvas.clientHeight, centre: this.centre };
  }

  frame(): void {
    const diag = Math.max(1, Math.hypot(...this.size));
    const o = this.orbit;
    o.target = Vector3.Zero();
    o.alpha = -Math.PI / 2 - 0.6;
    o.beta = 0.95;
    o.radius = diag * 0.8;
    o.lowerRadiusLimit = diag * 0.002;
    o.upperRadiusLimit = diag * 8;
    o.minZ = Math.max(0.01, diag / 5000);
    o.maxZ = diag * 20;
    o.panningSensibility = 2000 / diag;
    this.stage.requestRender(200);
  }

  /** Look straight down (the usual view for box selection on the ground). */
  topView(): void {
    this.orbit.alpha = -Math.PI / 2;
    this.orbit.beta = 0.0001;
    this.stage.requestRender(200);
  }

  requestRender(ms = 100): void {
    this.stage.requestRender(ms);
  }

  dispose(): void {
    this.stage.dispose();
  }
}
