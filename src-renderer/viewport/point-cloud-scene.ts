/**
 * A framework-free Babylon.js scene that shows one point cloud: a single unindexed Mesh
 * drawn as points (one draw call whatever the point count), a ground grid, an axis tripod,
 * an orbit camera and a fly camera. PointCloudViewport.vue owns one of these per canvas.
 *
 * Frames: Thicket's world is right-handed, z up; Babylon's default is left-handed, y up.
 * We keep Babylon's default and map each point (x, y, z) → (x, z, y). Swapping two axes
 * flips handedness, so this one swap converts RH z-up to LH y-up without mirroring the
 * scene: a tree on the robot's left stays on its left.
 *
 * Points are re-centred on the cloud's bounds centre before going to float32 GPU buffers,
 * so logs in large map coordinates keep centimetre precision near the camera.
 *
 * Rendering is on demand: the loop renders only while the camera moves, input is active or
 * something changed, so an idle 5-million-point view costs nothing (and headless tests with
 * software WebGL stay fast).
 */
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { UniversalCamera } from '@babylonjs/core/Cameras/universalCamera';
import type { Camera } from '@babylonjs/core/Cameras/camera';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import type { Bounds } from '../../src-main/api/contract';
import { computeBounds, niceStep } from './bounds';
import { PointStage } from './point-stage';
import { axisTripod } from './axis-tripod';
import { NO_OVERLAY, PlaybackLayers, type ViewportOverlay } from './playback-layers';
import type { Centre } from './local-frame';
import type { FlyState, LinkableCamera, OrbitState } from './camera-link';

export type CameraMode = 'orbit' | 'fly';

export class PointCloudScene {
  private readonly stage: PointStage;
  private readonly orbit: ArcRotateCamera;
  private readonly fly: UniversalCamera;
  private mesh: Mesh | null = null;
  private helpers: LinesMesh[] = [];
  private _pointCount = 0;
  private _gridStep = 0;
  private _mode: CameraMode = 'orbit';
  private lastSize: [number, number, number] = [10, 10, 10];
  private centre: Centre = [0, 0, 0];
  private readonly layers: PlaybackLayers;
  private overlay: ViewportOverlay = NO_OVERLAY;

  private get scene() {
    return this.stage.scene;
  }

  private get material() {
    return this.stage.material;
  }

  constructor(private readonly canvas: HTMLCanvasElement) {
    this.stage = new PointStage(canvas, ['pointerdown', 'pointermove', 'wheel', 'keydown', 'keyup']);

    this.orbit = new ArcRotateCamera('orbit', -Math.PI / 2 - 0.6, 1.0, 50, Vector3.Zero(), this.scene);
    this.orbit.wheelDeltaPercentage = 0.02; // scale-independent zoom
    this.orbit.upperBetaLimit = Math.PI * 0.56; // allow a look from just below the horizon
    // The arrow keys step playback (LogTimeline), so the orbit camera does not take them.
    this.orbit.keysUp = [];
    this.orbit.keysDown = [];
    this.orbit.keysLeft = [];
    this.orbit.keysRight = [];
    this.orbit.attachControl(true);

    this.fly = new UniversalCamera('fly', new Vector3(0, 10, -50), this.scene);
    this.fly.keysUp = [87]; // W
    this.fly.keysDown = [83]; // S
    this.fly.keysLeft = [65]; // A
    this.fly.keysRight = [68]; // D
    this.fly.keysUpward = [69]; // E
    this.fly.keysDownward = [81]; // Q
    this.fly.angularSensibility = 1500;
    this.scene.activeCamera = this.orbit;

    this.stage.follow(this.orbit);
    this.stage.follow(this.fly);
    this.layers = new PlaybackLayers(this.stage);
  }

  /** Points highlighted by playback (the current sweep), and miss rays drawn. */
  get overlayCounts(): { highlight: number; misses: number } {
    return { highlight: this.layers.highlightCount, misses: this.layers.missCount };
  }

  /** Draw playback's layers over the cloud (kept and redrawn when the cloud changes). */
  setOverlay(overlay: ViewportOverlay): void {
    this.overlay = overlay;
    if (this.mesh) this.layers.apply(overlay, this.centre, this.markerSize());
  }

  /** The sensor cross: a fifth of the grid step, so it reads at the framing's scale. */
  private markerSize(): number {
    return Math.max(0.2, (this._gridStep || 10) / 5);
  }

  get pointCount(): number {
    return this._pointCount;
  }

  /** Spacing of the ground grid in metres (0 before a cloud is shown). */
  get gridStep(): number {
    return this._gridStep;
  }

  get cameraMode(): CameraMode {
    return this._mode;
  }

  /** Keep rendering for `ms` more milliseconds. */
  requestRender(ms = 100): void {
    this.stage.requestRender(ms);
  }

  /**
   * Show a cloud: `positions` are Thicket world x,y,z triples, `colors` RGBA 0..1 per point.
   * Resolves once the mesh and its shader are ready and a frame with it has been drawn.
   */
  async setCloud(positions: Float32Array, colors: Float32Array, bounds: Bounds | null): Promise<void> {
    this.clearCloud();
    const n = Math.floor(positions.length / 3);
    const b = bounds ?? computeBounds(positions) ?? { min: [0, 0, 0], max: [0, 0, 0] };
    const c = [0, 1, 2].map((a) => (b.min[a]! + b.max[a]!) / 2) as [number, number, number];
    this.centre = c;
    const local = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) {
      const o = i * 3;
      local[o] = positions[o]! - c[0]; // x → x
      local[o + 1] = positions[o + 2]! - c[2]; // z (up) → Babylon y (up)
      local[o + 2] = positions[o + 1]! - c[1]; // y → Babylon z
    }
    this.mesh = this.stage.pointsMesh('cloud', local, colors, true);
    this._pointCount = n;

    const size: [number, number, number] = [b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]];
    this.buildHelpers(size);
    this.layers.apply(this.overlay, c, this.markerSize(), true);
    this.frame(size);
    await this.stage.drawn();
  }

  /** Replace the per-point colours (same point count as the shown cloud). */
  setColors(colors: Float32Array): void {
    if (!this.mesh) return;
    // 'color' is VertexBuffer.ColorKind. Importing '@babylonjs/core/Buffers/buffer' trips the
    // lint rule against the Node 'buffer' module (its pattern matches any path ending in /buffer).
    this.mesh.updateVerticesData('color', colors);
    this.requestRender();
  }

  setPointSize(px: number): void {
    this.material.pointSize = px;
    this.layers.setPointSize(px);
    this.requestRender();
  }

  setCameraMode(mode: CameraMode): void {
    if (mode === this._mode) return;
    const from: Camera = mode === 'fly' ? this.orbit : this.fly;
    from.detachControl();
    if (mode === 'fly') {
      // Start flying from where the orbit camera is, looking at what it looked at.
      this.fly.position.copyFrom(this.orbit.position);
      this.fly.setTarget(this.orbit.target.clone());
      this.fly.attachControl(true);
      this.scene.activeCamera = this.fly;
      this.canvas.focus(); // WASD goes to the canvas
    } else {
      this.orbit.setPosition(this.fly.position.clone());
      this.orbit.attachControl(true);
      this.scene.activeCamera = this.orbit;
    }
    this._mode = mode;
    this.requestRender(200);
  }

  /**
   * The two cameras as linkable ones (viewport/camera-link.ts): positions and targets in the
   * world frame, so views whose clouds are centred differently still look at the same place.
   */
  linkables(): { orbit: LinkableCamera<OrbitState>; fly: LinkableCamera<FlyState> } {
    const c = () => this.centre;
    // Babylon local (x, y up, z) ↔ Thicket world (x, y, z up), re-centred (see the header).
    const toWorld = (v: Vector3): [number, number, number] => [v.x + c()[0], v.z + c()[1], v.y + c()[2]];
    const toLocal = (w: readonly number[]) => new Vector3(w[0]! - c()[0], w[2]! - c()[2], w[1]! - c()[1]);
    const onChange = (cam: Camera) => (listener: () => void) => {
      const o = cam.onViewMatrixChangedObservable.add(listener);
      return () => cam.onViewMatrixChangedObservable.remove(o);
    };
    const o = this.orbit, f = this.fly;
    return {
      orbit: {
        read: () => ({ alpha: o.alpha, beta: o.beta, radius: o.radius, target: toWorld(o.target) }),
        write: (s) => {
          // The target first, keeping the angles (setting `target` would recompute them from the old position).
          o.setTarget(toLocal(s.target), false, false, true);
          o.alpha = s.alpha;
          o.beta = s.beta;
          o.radius = s.radius;
          this.requestRender(200);
        },
        onChange: onChange(o),
      },
      fly: {
        read: () => ({ position: toWorld(f.position), rotation: [f.rotation.x, f.rotation.y, f.rotation.z] }),
        write: (s) => {
          f.position = toLocal(s.position);
          f.rotation = new Vector3(...s.rotation);
          this.requestRender(200);
        },
        onChange: onChange(f),
      },
    };
  }

  /** Frame the whole cloud with the orbit camera (the "reset view" button). */
  frame(size?: [number, number, number]): void {
    const s = size ?? this.lastSize;
    this.lastSize = s;
    const diag = Math.max(1, Math.hypot(s[0], s[1], s[2]));
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
    this.fly.minZ = o.minZ;
    this.fly.maxZ = o.maxZ;
    this.fly.speed = Math.max(0.05, diag / 400);
    if (this._mode === 'fly') this.setCameraMode('orbit');
    this.requestRender(200);
  }

  /** Ground grid under the cloud (at its lowest z) and a tripod at the min corner: x red, y green, z blue. */
  private buildHelpers([sx, sy, sz]: [number, number, number]): void {
    const step = niceStep(Math.max(sx, sy));
    this._gridStep = step;
    const hx = Math.ceil(sx / 2 / step) * step;
    const hy = Math.ceil(sy / 2 / step) * step;
    const ground = -sz / 2;
    const lines: Vector3[][] = [];
    for (let x = -hx; x <= hx + 1e-9; x += step) lines.push([new Vector3(x, ground, -hy), new Vector3(x, ground, hy)]);
    for (let y = -hy; y <= hy + 1e-9; y += step) lines.push([new Vector3(-hx, ground, y), new Vector3(hx, ground, y)]);
    const grid = CreateLineSystem('grid', { lines }, this.scene);
    grid.color = new Color3(0.32, 0.35, 0.4);
    grid.alpha = 0.55;
    grid.isPickable = false;

    this.helpers = [grid, axisTripod(this.scene, new Vector3(-hx, ground, -hy), step)];
  }

  clearCloud(): void {
    this.mesh?.dispose(false, false);
    this.mesh = null;
    for (const h of this.helpers) h.dispose();
    this.helpers = [];
    this.layers.clear();
    this._pointCount = 0;
    this.requestRender();
  }

  dispose(): void {
    this.stage.dispose();
  }
}
