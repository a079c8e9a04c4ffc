/**
 * The scene editor's Babylon view (framework-free; docs/design.md, *Scene editor*): the terrain
 * as one lit mesh from its height grid, each placement as a box of its primitive's extents ×
 * scale turned by its yaw (one thin-instanced unit box, a colour per class, selected ones lit up),
 * the scatter polygon being drawn, and an orbit camera. It turns pointer input into the editor's
 * gestures — a click on the ground, a click on a placement, a drag of a selected placement over
 * the ground — and leaves what they mean to the page (use-scene-editor.ts). Rendering is on
 * demand (viewport/point-stage.ts).
 *
 * Frames as in every view (viewport/local-frame.ts): Thicket (x, y, z) → Babylon (x, z, y) about
 * a centre, the terrain's middle.
 */
import '@babylonjs/core/Meshes/thinInstanceMesh';
import '@babylonjs/core/Culling/ray';
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { PointStage } from '../../viewport/point-stage';
import { toLocal } from '../../viewport/local-frame';
import { createLineList, polylineIndices } from '../../viewport/line-list';
import { classColor } from '../../../src-common/colormaps';
import { gridHeightAt, type TerrainGrid } from '../../../src-common/scene-authoring';
import { topView, TOP_BETA, type CameraView } from './camera-views';

/** A placement as drawn. */
export interface ProxyBox {
  key: number;
  x: number;
  y: number;
  /** Foot height (NaN: drawn at the terrain's middle height). */
  z: number;
  yaw: number;
  /** Extents × scale: length (along yaw), width, height (m). */
  size: [number, number, number];
  cls: number;
  selected: boolean;
}

export interface EditorGestures {
  /** A click (press and release without moving) on the ground, or on nothing when `x` is NaN. */
  groundClick(x: number, y: number, shift: boolean): void;
  /** A press on a placement: 'drag' (it is selected and may be dragged), 'select' (selection changed, no drag) or 'ignore' (a press on the ground). */
  placementDown(key: number, shift: boolean): 'drag' | 'select' | 'ignore';
  /** The selection dragged by (dx, dy) over the ground since the press; `done` on release. */
  drag(dx: number, dy: number, done: boolean): void;
  /** A double-click on the ground (closes a polygon). */
  groundDoubleClick(): void;
  /** A handle dragged to the ground point (x, y); `done` on release. */
  handle(kind: HandleKind, x: number, y: number, done: boolean): void;
  /** The sensor preview's vehicle dragged to the ground point (x, y); `done` on release. */
  vehicle?(x: number, y: number, done: boolean): void;
}

/** The sensor preview's vehicle as drawn: its footprint centre on the ground, heading and size. */
export interface VehicleBox {
  x: number;
  y: number;
  z: number;
  yaw: number;
  length: number;
  width: number;
}

export type HandleKind = 'rotate' | 'scale';

/** Where the selection's handles stand (world x, y), and the placement's foot they are drawn from. */
export interface Handles {
  foot: [number, number, number];
  rotate: [number, number];
  scale: [number, number];
}

const CLICK_SLOP_PX = 5;
const SELECTED = [1, 0.86, 0.3] as const;

export class EditorScene {
  private readonly stage: PointStage;
  private readonly camera: ArcRotateCamera;
  private readonly lit: StandardMaterial;
  private terrain: Mesh | null = null;
  private readonly boxes: Mesh;
  private polygon: LinesMesh | null = null;
  private grid: TerrainGrid | null = null;
  private centre: [number, number, number] = [0, 0, 0];
  private shown: ProxyBox[] = [];
  private press: { x: number; y: number; key: number | null; ground: [number, number] | null; dragging: boolean; moved: boolean; handle: HandleKind | null; vehicle?: boolean } | null = null;
  private readonly handleMeshes: Record<HandleKind, Mesh>;
  private handleLines: LinesMesh | null = null;
  private readonly vehicleMesh: Mesh;
  private previewCloud: Mesh | null = null;
  /** The pointer's last place over the canvas (CSS px), null once it leaves: where a paste goes. */
  private hover: [number, number] | null = null;
  gestures: EditorGestures | null = null;
  /** Called whenever the camera moves (the minimap follows it). */
  onCamera: (() => void) | null = null;

  constructor(private readonly canvas: HTMLCanvasElement) {
    this.stage = new PointStage(canvas, ['pointerdown', 'pointermove', 'wheel', 'pointerup']);
    const scene = this.stage.scene;
    this.camera = new ArcRotateCamera('orbit', -Math.PI / 2, 0.9, 60, Vector3.Zero(), scene);
    this.camera.wheelDeltaPercentage = 0.02;
    this.camera.upperBetaLimit = Math.PI * 0.48;
    this.camera.lowerBetaLimit = TOP_BETA;
    this.camera.attachControl(true);
    scene.activeCamera = this.camera;
    this.stage.follow(this.camera);
    this.camera.onViewMatrixChangedObservable.add(() => this.onCamera?.());
    const light = new HemisphericLight('sky', new Vector3(0.3, 1, 0.2), scene);
    light.groundColor = new Color3(0.3, 0.3, 0.34);
    light.specular = new Color3(0.05, 0.05, 0.05);
    this.lit = new StandardMaterial('editor', scene);
    this.lit.diffuseColor = Color3.White();
    this.lit.specularColor = new Color3(0.05, 0.05, 0.05);
    this.lit.backFaceCulling = false;
    this.boxes = CreateBox('placements', { size: 1 }, scene);
    this.boxes.material = this.lit;
    this.boxes.thinInstanceEnablePicking = true;
    this.boxes.alwaysSelectAsActiveMesh = true;
    this.boxes.setEnabled(false);
    const handleMaterial = (name: string, rgb: [number, number, number]) => {
      const m = new StandardMaterial(name, scene);
      m.emissiveColor = new Color3(...rgb);
      m.disableLighting = true;
      return m;
    };
    this.handleMeshes = {
      rotate: CreateSphere('rotate-handle', { diameter: 0.6, segments: 8 }, scene),
      scale: CreateSphere('scale-handle', { diameter: 0.6, segments: 8 }, scene),
    };
    this.handleMeshes.rotate.material = handleMaterial('rotate-handle', [0.35, 0.85, 1]);
    this.handleMeshes.scale.material = handleMaterial('scale-handle', [1, 0.55, 0.25]);
    for (const m of Object.values(this.handleMeshes)) m.setEnabled(false);
    // The sensor preview's vehicle: a magenta box 1 m high, its nose lit so the heading reads.
    this.vehicleMesh = CreateBox('vehicle', { size: 1, faceColors: Array.from({ length: 6 }, (_, i) => (i === 0 ? new Color4(1, 0.85, 1, 1) : new Color4(1, 0.24, 1, 1))) }, scene);
    this.vehicleMesh.material = handleMaterial('vehicle', [1, 1, 1]);
    (this.vehicleMesh.material as StandardMaterial).emissiveColor = Color3.Black();
    (this.vehicleMesh.material as StandardMaterial).disableLighting = false;
    this.vehicleMesh.setEnabled(false);
    // Capture on the stage: the gestures see a press before the camera does, so a drag of a
    // placement can take the pointer from the orbit control.
    const host = canvas.parentElement ?? canvas;
    host.addEventListener('pointerdown', this.onDown, true);
    window.addEventListener('pointermove', this.onMove);
    window.addEventListener('pointerup', this.onUp);
    canvas.addEventListener('dblclick', this.onDouble);
    canvas.addEventListener('pointermove', this.onHover);
    canvas.addEventListener('pointerleave', this.onLeave);
  }

  /** Thicket world → Babylon local. */
  private local(x: number, y: number, z: number): Vector3 {
    return new Vector3(x - this.centre[0], z - this.centre[2], y - this.centre[1]);
  }

  setTerrain(grid: TerrainGrid): void {
    this.grid = grid;
    this.terrain?.dispose();
    const { nx, ny, cell, x0, y0 } = grid;
    let lo = Infinity, hi = -Infinity;
    for (const z of grid.z) if (Number.isFinite(z)) { lo = Math.min(lo, z); hi = Math.max(hi, z); }
    if (!Number.isFinite(lo)) lo = hi = 0;
    this.centre = [x0 + ((nx - 1) * cell) / 2, y0 + ((ny - 1) * cell) / 2, (lo + hi) / 2];
    const positions = new Float32Array(3 * nx * ny), colors = new Float32Array(4 * nx * ny);
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const k = j * nx + i, z = grid.z[k]!;
        const v = this.local(x0 + i * cell, y0 + j * cell, Number.isFinite(z) ? z : lo);
        positions.set([v.x, v.y, v.z], 3 * k);
        // Earth tones by height, a faint checker every 5 m so distances read.
        const t = hi > lo ? (z - lo) / (hi - lo) : 0.5;
        const check = (Math.floor((x0 + i * cell) / 5) + Math.floor((y0 + j * cell) / 5)) & 1 ? 0.03 : 0;
        colors.set([0.3 + 0.15 * t + check, 0.33 + 0.12 * t + check, 0.25 + 0.08 * t + check, 1], 4 * k);
      }
    }
    const indices: number[] = [];
    for (let j = 0; j + 1 < ny; j++) {
      for (let i = 0; i + 1 < nx; i++) {
        const a = j * nx + i, b = a + 1, c = a + nx + 1, d = a + nx;
        // The grid's own split (src-common/scene-authoring.ts gridHeightAt); squares without ground are left out.
        if ([a, b, c, d].some((n) => !Number.isFinite(grid.z[n]!))) continue;
        indices.push(a, b, c, a, c, d);
      }
    }
    const mesh = new Mesh('terrain', this.stage.scene);
    const data = new VertexData();
    data.positions = positions;
    data.colors = colors;
    data.indices = indices;
    const normals: number[] = [];
    VertexData.ComputeNormals(positions, indices, normals);
    data.normals = normals;
    data.applyToMesh(mesh);
    mesh.material = this.lit;
    this.terrain = mesh;
    this.frame();
  }

  /** Points the camera at the whole terrain from above and to the south. */
  frame(): void {
    if (!this.grid) return;
    const size = Math.max(this.grid.nx, this.grid.ny) * this.grid.cell;
    const c = this.camera;
    c.target = Vector3.Zero();
    c.alpha = -Math.PI / 2;
    c.beta = 0.75;
    c.radius = size * 1.1;
    c.lowerRadiusLimit = 1;
    c.upperRadiusLimit = size * 5;
    c.minZ = 0.1;
    c.maxZ = size * 20;
    c.panningSensibility = 3000 / size;
    this.stage.requestRender(200);
  }

  /** The camera's state, its target in world coordinates. */
  cameraView(): CameraView {
    const c = this.camera, t = c.target;
    return { alpha: c.alpha, beta: c.beta, radius: c.radius, target: [t.x + this.centre[0], t.z + this.centre[1], t.y + this.centre[2]] };
  }

  /** Puts the camera in a state (a bookmark), stopping any glide left from a drag. */
  setCameraView(v: CameraView): void {
    const c = this.camera;
    c.inertialAlphaOffset = c.inertialBetaOffset = c.inertialRadiusOffset = 0;
    c.inertialPanningX = c.inertialPanningY = 0;
    c.target = this.local(...v.target);
    c.alpha = v.alpha;
    c.beta = Math.min(c.upperBetaLimit ?? Math.PI, Math.max(TOP_BETA, v.beta));
    c.radius = Math.min(c.upperRadiusLimit ?? Infinity, Math.max(c.lowerRadiusLimit ?? 0, v.radius));
    this.stage.requestRender(200);
  }

  /** Straight down over the whole terrain, north up. */
  lookDown(): void {
    if (this.grid) this.setCameraView(topView(this.grid, this.centre[2], this.camera.fov));
  }

  /** Moves the camera's target to the ground at world (x, y), keeping its angles and distance. */
  setTarget(x: number, y: number): void {
    const g = this.grid ? gridHeightAt(this.grid, x, y) : NaN;
    this.setCameraView({ ...this.cameraView(), target: [x, y, Number.isFinite(g) ? g : this.centre[2]] });
  }

  /** The ground point under the pointer (world x, y), or null when it is not over the ground. */
  pointerGround(): [number, number] | null {
    return this.hover ? this.groundAt(...this.hover) : null;
  }

  setBoxes(boxes: ProxyBox[]): void {
    this.shown = boxes;
    const n = boxes.length;
    const matrices = new Float32Array(16 * Math.max(1, n)), colors = new Float32Array(4 * Math.max(1, n));
    const midZ = this.centre[2];
    boxes.forEach((b, k) => {
      const [l, w, h] = b.size;
      const c = Math.cos(b.yaw), s = Math.sin(b.yaw);
      const foot = this.local(b.x, b.y, Number.isFinite(b.z) ? b.z : midZ);
      // Row-vector matrix (v' = v·M): rows are where the unit box's axes go — length along the
      // yaw, height up, width across — then the box centre, half its height above the foot.
      matrices.set([l * c, 0, l * s, 0, 0, h, 0, 0, -w * s, 0, w * c, 0, foot.x, foot.y + h / 2, foot.z, 1], 16 * k);
      const rgb = b.selected ? SELECTED : classColor(b.cls);
      colors.set([rgb[0], rgb[1], rgb[2], 1], 4 * k);
    });
    this.boxes.thinInstanceSetBuffer('matrix', matrices.subarray(0, 16 * n), 16, false);
    this.boxes.thinInstanceSetBuffer('color', colors.subarray(0, 4 * n), 4, false);
    this.boxes.thinInstanceRefreshBoundingInfo(false);
    this.boxes.setEnabled(n > 0);
    this.stage.requestRender(100);
  }

  /** The selection's turn and scale handles, 30 cm over the ground, joined to the foot; null hides them. */
  setHandles(h: Handles | null): void {
    this.handleLines?.dispose();
    this.handleLines = null;
    for (const kind of ['rotate', 'scale'] as const) {
      const m = this.handleMeshes[kind];
      m.setEnabled(h !== null);
      if (!h) continue;
      const [x, y] = h[kind];
      const g = this.grid ? gridHeightAt(this.grid, x, y) : NaN;
      m.position = this.local(x, y, (Number.isFinite(g) ? g : h.foot[2]) + 0.3);
    }
    if (h) {
      const f = this.local(h.foot[0], h.foot[1], h.foot[2] + 0.3);
      const pos = new Float32Array([f.x, f.y, f.z, ...this.handleMeshes.rotate.position.asArray(), f.x, f.y, f.z, ...this.handleMeshes.scale.position.asArray()]);
      this.handleLines = createLineList('handle-lines', this.stage.scene, pos, { color: [0.8, 0.8, 0.8], alpha: 1 });
    }
    this.stage.requestRender(100);
  }

  /** The polygon being drawn (closed when `closed`), 20 cm over the ground. */
  setPolygon(points: readonly (readonly [number, number])[], closed: boolean): void {
    this.polygon?.dispose();
    this.polygon = null;
    if (points.length >= 2) {
      const pts = closed ? [...points, points[0]!] : points;
      const pos = new Float32Array(3 * pts.length);
      pts.forEach(([x, y], k) => {
        const g = this.grid ? gridHeightAt(this.grid, x, y) : NaN;
        const v = this.local(x, y, (Number.isFinite(g) ? g : this.centre[2]) + 0.2);
        pos.set([v.x, v.y, v.z], 3 * k);
      });
      this.polygon = createLineList('polygon', this.stage.scene, pos, { color: [0.35, 0.85, 1], alpha: 1 }, polylineIndices(pts.length));
    }
    this.stage.requestRender(100);
  }

  /** The sensor preview's vehicle, or null to hide it. */
  setVehicle(v: VehicleBox | null): void {
    const m = this.vehicleMesh;
    m.setEnabled(v !== null);
    if (v) {
      m.scaling = new Vector3(v.length, 1, v.width);
      m.position = this.local(v.x, v.y, v.z + 0.5);
      // Babylon's y rotation turns +x toward −z, which is world −y: the opposite sense of yaw.
      m.rotation = new Vector3(0, -v.yaw, 0);
    }
    this.stage.requestRender(100);
  }

  /** One revolution's returns (world xyz) in class colours, or null to clear them. */
  setPreview(points: { xyz: Float32Array; classId: Uint8Array } | null): void {
    this.previewCloud?.dispose();
    this.previewCloud = null;
    if (points && points.classId.length) {
      const n = points.classId.length;
      const positions = toLocal(points.xyz, this.centre), colors = new Float32Array(4 * n);
      for (let i = 0; i < n; i++) {
        const [r, g, b] = classColor(points.classId[i]!);
        colors.set([r, g, b, 1], 4 * i);
      }
      const mesh = new Mesh('sensor-preview', this.stage.scene);
      const data = new VertexData();
      data.positions = positions;
      data.colors = colors;
      data.indices = Uint32Array.from({ length: n }, (_, i) => i);
      data.applyToMesh(mesh);
      mesh.material = this.stage.material;
      mesh.isPickable = false;
      this.previewCloud = mesh;
    }
    this.stage.requestRender(100);
  }

  /** The world (x, y) on the ground under a canvas point, or null. */
  groundAt(px: number, py: number): [number, number] | null {
    if (!this.terrain) return null;
    const hit = this.stage.scene.pick(px, py, (m) => m === this.terrain);
    if (!hit?.hit || !hit.pickedPoint) return null;
    const p = hit.pickedPoint;
    return [p.x + this.centre[0], p.z + this.centre[1]];
  }

  /** The key of the placement under a canvas point, or null. */
  placementAt(px: number, py: number): number | null {
    if (!this.shown.length) return null;
    const hit = this.stage.scene.pick(px, py, (m) => m === this.boxes);
    if (!hit?.hit || hit.thinInstanceIndex === undefined || hit.thinInstanceIndex < 0) return null;
    return this.shown[hit.thinInstanceIndex]?.key ?? null;
  }

  /** Where a world point is on the canvas (CSS pixels; the tests' hook). */
  screenOf(x: number, y: number, z?: number): [number, number] {
    const g = z ?? (this.grid ? gridHeightAt(this.grid, x, y) : 0);
    const scene = this.stage.scene;
    const engine = scene.getEngine();
    const w = engine.getRenderWidth(), h = engine.getRenderHeight();
    const p = Vector3.Project(this.local(x, y, Number.isFinite(g) ? g : this.centre[2]), Matrix.Identity(), scene.getTransformMatrix(), this.camera.viewport.toGlobal(w, h));
    const rect = this.canvas.getBoundingClientRect();
    return [(p.x * rect.width) / w, (p.y * rect.height) / h];
  }

  async drawn(): Promise<void> {
    await this.stage.drawn();
  }

  private canvasPoint(e: PointerEvent | MouseEvent): [number, number] {
    const r = this.canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  private readonly onDown = (e: PointerEvent) => {
    if (e.button !== 0 || e.target !== this.canvas) return;
    const [px, py] = this.canvasPoint(e);
    if (this.vehicleMesh.isEnabled() && this.gestures?.vehicle && this.stage.scene.pick(px, py, (m) => m === this.vehicleMesh)?.hit) {
      this.camera.detachControl();
      e.stopPropagation();
      this.press = { x: e.clientX, y: e.clientY, key: null, ground: null, dragging: false, moved: false, handle: null, vehicle: true };
      return;
    }
    const handle = this.handleAt(px, py);
    if (handle) {
      this.camera.detachControl();
      e.stopPropagation();
      this.press = { x: e.clientX, y: e.clientY, key: null, ground: null, dragging: false, moved: false, handle };
      return;
    }
    let key = this.placementAt(px, py);
    const ground = this.groundAt(px, py);
    const answer = key !== null && this.gestures ? this.gestures.placementDown(key, e.shiftKey) : 'ignore';
    if (answer === 'ignore') key = null;
    const dragging = answer === 'drag';
    if (dragging) {
      // The drag is the editor's, not the camera's.
      this.camera.detachControl();
      e.stopPropagation();
    }
    this.press = { x: e.clientX, y: e.clientY, key, ground, dragging, moved: false, handle: null };
  };

  private handleAt(px: number, py: number): HandleKind | null {
    if (!this.handleMeshes.rotate.isEnabled()) return null;
    const hit = this.stage.scene.pick(px, py, (m) => m === this.handleMeshes.rotate || m === this.handleMeshes.scale);
    if (!hit?.hit) return null;
    return hit.pickedMesh === this.handleMeshes.rotate ? 'rotate' : 'scale';
  }

  private readonly onMove = (e: PointerEvent) => {
    const p = this.press;
    if (!p) return;
    if (Math.hypot(e.clientX - p.x, e.clientY - p.y) > CLICK_SLOP_PX) p.moved = true;
    if (p.vehicle) {
      const g = p.moved ? this.groundAt(...this.canvasPoint(e)) : null;
      if (g) this.gestures?.vehicle?.(g[0], g[1], false);
      return;
    }
    if (p.handle) {
      const g = p.moved ? this.groundAt(...this.canvasPoint(e)) : null;
      if (g) this.gestures?.handle(p.handle, g[0], g[1], false);
      return;
    }
    if (!p.dragging || !p.ground || !p.moved) return;
    const g = this.groundAt(...this.canvasPoint(e));
    if (g) this.gestures?.drag(g[0] - p.ground[0], g[1] - p.ground[1], false);
  };

  private readonly onUp = (e: PointerEvent) => {
    const p = this.press;
    this.press = null;
    if (!p) return;
    if (p.vehicle) {
      this.camera.attachControl(true);
      const g = p.moved ? this.groundAt(...this.canvasPoint(e)) : null;
      if (g) this.gestures?.vehicle?.(g[0], g[1], true);
      return;
    }
    if (p.handle) {
      this.camera.attachControl(true);
      const g = p.moved ? this.groundAt(...this.canvasPoint(e)) : null;
      this.gestures?.handle(p.handle, g?.[0] ?? NaN, g?.[1] ?? NaN, true);
      return;
    }
    if (p.dragging) {
      this.camera.attachControl(true);
      const g = p.moved ? this.groundAt(...this.canvasPoint(e)) : null;
      this.gestures?.drag(g && p.ground ? g[0] - p.ground[0] : 0, g && p.ground ? g[1] - p.ground[1] : 0, true);
      return;
    }
    if (!p.moved && p.key === null) this.gestures?.groundClick(p.ground?.[0] ?? NaN, p.ground?.[1] ?? NaN, e.shiftKey);
  };

  private readonly onDouble = () => this.gestures?.groundDoubleClick();
  private readonly onHover = (e: PointerEvent) => (this.hover = this.canvasPoint(e));
  private readonly onLeave = () => (this.hover = null);

  dispose(): void {
    const host = this.canvas.parentElement ?? this.canvas;
    host.removeEventListener('pointerdown', this.onDown, true);
    window.removeEventListener('pointermove', this.onMove);
    window.removeEventListener('pointerup', this.onUp);
    this.canvas.removeEventListener('dblclick', this.onDouble);
    this.canvas.removeEventListener('pointermove', this.onHover);
    this.canvas.removeEventListener('pointerleave', this.onLeave);
    this.onCamera = null;
    this.stage.dispose();
  }
}
