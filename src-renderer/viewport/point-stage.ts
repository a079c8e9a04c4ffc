/**
 * What every Thicket 3D view shares: a Babylon engine and scene on a canvas, an unlit points
 * material, on-demand rendering (the loop draws only while the camera moves, input is active or
 * something changed, so an idle view costs nothing and headless tests stay fast), resize
 * handling, and point clouds as ONE unindexed mesh (one draw call whatever the point count).
 *
 * Frames: Thicket's world is right-handed, z up; Babylon's default is left-handed, y up. Views
 * map (x, y, z) → (x, z, y): swapping two axes flips handedness, so RH z-up becomes LH y-up
 * without mirroring — a tree on the robot's left stays on its left.
 */
import { Engine } from '@babylonjs/core/Engines/engine';
import { Scene } from '@babylonjs/core/scene';
import type { Camera } from '@babylonjs/core/Cameras/camera';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';

const BACKGROUND = new Color4(0.075, 0.082, 0.094, 1);

export class PointStage {
  readonly engine: Engine;
  readonly scene: Scene;
  readonly material: StandardMaterial;
  disposed = false;
  private renderUntil = 0;
  private readonly resizeObserver: ResizeObserver;
  private readonly wake = () => this.requestRender(400);

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly wakeEvents: readonly string[] = ['pointerdown', 'pointermove', 'wheel'],
  ) {
    // preserveDrawingBuffer keeps the last frame readable, so screenshots (toDataURL,
    // Playwright) work even though we render only on demand.
    this.engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: false, premultipliedAlpha: false }, true);
    this.scene = new Scene(this.engine);
    this.scene.clearColor = BACKGROUND;
    // Clouds are not pickable; skipping pointer picking keeps mouse moves cheap at millions of points.
    this.scene.skipPointerMovePicking = true;

    this.material = new StandardMaterial('points', this.scene);
    this.material.pointsCloud = true;
    this.material.pointSize = 2;
    // Unlit white emissive: the final colour is exactly the per-vertex colour.
    this.material.disableLighting = true;
    this.material.emissiveColor = Color3.White();
    this.material.backFaceCulling = false;

    for (const ev of wakeEvents) canvas.addEventListener(ev, this.wake);
    this.resizeObserver = new ResizeObserver(() => {
      this.engine.resize();
      this.requestRender(100);
    });
    this.resizeObserver.observe(canvas);
    // Also one frame when the scene turns ready: a mesh added late in a render window (its
    // material still compiling) would otherwise show only at the next wake.
    let wasReady = true;
    this.engine.runRenderLoop(() => {
      const ready = this.scene.isReady();
      if (performance.now() < this.renderUntil || !ready || !wasReady) this.scene.render();
      wasReady = ready;
    });
    this.requestRender(200);
  }

  /** Keep rendering for `ms` more milliseconds. */
  requestRender(ms = 100): void {
    this.renderUntil = Math.max(this.renderUntil, performance.now() + ms);
  }

  /** Redraw whenever this camera moves. */
  follow(camera: Camera): void {
    camera.onViewMatrixChangedObservable.add(() => this.requestRender(100));
  }

  /** One unindexed mesh drawn as points; `positions` already in Babylon axes, `colors` RGBA per point. */
  pointsMesh(name: string, positions: Float32Array, colors: Float32Array, updatableColors = false): Mesh {
    const mesh = new Mesh(name, this.scene);
    mesh.isUnIndexed = true; // drawArrays over all vertices; no 4-byte index per point
    mesh.isPickable = false;
    mesh.alwaysSelectAsActiveMesh = true; // one mesh, always in view: skip per-frame culling
    const data = new VertexData();
    data.positions = positions;
    data.colors = colors;
    if (positions.length > 0) data.applyToMesh(mesh, updatableColors);
    mesh.hasVertexAlpha = false;
    mesh.material = this.material;
    mesh.freezeWorldMatrix();
    return mesh;
  }

  /** Resolves once everything in the scene is ready and one frame with it has been drawn. */
  async drawn(): Promise<void> {
    await this.scene.whenReadyAsync();
    if (this.disposed) return;
    this.scene.render();
    this.requestRender(200);
  }

  dispose(): void {
    this.disposed = true;
    for (const ev of this.wakeEvents) this.canvas.removeEventListener(ev, this.wake);
    this.resizeObserver.disconnect();
    this.engine.stopRenderLoop();
    this.scene.dispose();
    this.engine.dispose();
  }
}
