/**
 * A Babylon scene that shows one sensor's beam pattern on its vehicle: the rays of one
 * revolution as points, either on a sphere around the sensor ('sphere') or where they meet flat
 * ground ('ground'), coloured by laser; a ground grid at z = 0, a 4 × 2 m vehicle footprint with
 * its forward (x) arrow, and the mast up to the sensor at its mount height.
 *
 * Frames as in viewport/point-cloud-scene.ts: Thicket (x, y, z) → Babylon (x, z, y).
 * Rendering is on demand (only while the camera moves or something changed).
 */
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import type { ProfilePattern } from '../../../src-common/sensor-profile';
import { beamPoints, ringColors, type BeamView } from './beam-geometry';
import { PointStage } from '../../viewport/point-stage';
import { axisTripod } from '../../viewport/axis-tripod';

const v3 = (x: number, y: number, z: number) => new Vector3(x, z, y); // Thicket → Babylon

export class BeamScene {
  private readonly stage: PointStage;
  private readonly camera: ArcRotateCamera;
  private mesh: Mesh | null = null;
  private helpers: LinesMesh[] = [];
  private _pointCount = 0;
  private framedFor = '';

  private get scene() {
    return this.stage.scene;
  }

  constructor(canvas: HTMLCanvasElement) {
    this.stage = new PointStage(canvas);
    this.camera = new ArcRotateCamera('orbit', -Math.PI / 2 - 0.7, 1.05, 12, Vector3.Zero(), this.scene);
    this.camera.wheelDeltaPercentage = 0.02;
    this.camera.upperBetaLimit = Math.PI * 0.56;
    this.camera.attachControl(true);
    this.stage.follow(this.camera);
  }

  get pointCount(): number {
    return this._pointCount;
  }

  requestRender(ms = 100): void {
    this.stage.requestRender(ms);
  }

  setPointSize(px: number): void {
    this.stage.material.pointSize = px;
    this.requestRender();
  }

  /** Show a pattern; the camera is reframed when the view mode or the mount height changes. Resolves once drawn. */
  async show(pattern: ProfilePattern, view: BeamView, rangeMax: number): Promise<void> {
    this.clear();
    const { positions, rings, extent } = beamPoints(pattern, view, rangeMax);
    const n = rings.length;
    const local = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) {
      local[3 * i] = positions[3 * i]!;
      local[3 * i + 1] = positions[3 * i + 2]!;
      local[3 * i + 2] = positions[3 * i + 1]!;
    }
    this.mesh = this.stage.pointsMesh('beams', local, ringColors(rings, pattern.ringElevationsDeg));
    this._pointCount = n;
    this.buildHelpers(pattern.origin, extent);
    const key = `${view}:${pattern.origin.join(',')}:${Math.round(extent)}`;
    if (key !== this.framedFor) {
      this.frame(pattern.origin, extent);
      this.framedFor = key;
    }
    await this.stage.drawn();
  }

  frame(origin: [number, number, number], extent: number): void {
    const c = this.camera;
    c.target = v3(0, 0, origin[2] * 0.6);
    c.alpha = -Math.PI / 2 - 0.7;
    c.beta = 1.05;
    // Sphere view: the sensor, its mast and the 4 × 2 m vehicle in view; ground view: the rings.
    c.radius = Math.max(9 + origin[2], extent * 2.4);
    c.lowerRadiusLimit = 0.5;
    c.upperRadiusLimit = Math.max(50, extent * 10);
    c.minZ = 0.05;
    c.maxZ = Math.max(500, extent * 30);
    c.panningSensibility = 2000 / Math.max(5, extent * 2);
    this.requestRender(200);
  }

  private buildHelpers(origin: [number, number, number], extent: number): void {
    const half = Math.max(5, Math.ceil(extent / 5) * 5);
    const step = half > 40 ? 10 : half > 10 ? 5 : 1;
    const grid: Vector3[][] = [];
    for (let x = -half; x <= half + 1e-9; x += step) grid.push([v3(x, -half, 0), v3(x, half, 0)]);
    for (let y = -half; y <= half + 1e-9; y += step) grid.push([v3(-half, y, 0), v3(half, y, 0)]);
    const g = CreateLineSystem('grid', { lines: grid }, this.scene);
    g.color = new Color3(0.3, 0.33, 0.38);
    g.alpha = 0.5;
    g.isPickable = false;

    // Vehicle footprint (4 × 2 m around the vehicle origin), forward arrow, mast to the sensor.
    const [ox, oy, oz] = origin;
    const car = CreateLineSystem(
      'vehicle',
      {
        lines: [
          [v3(-2, -1, 0), v3(2, -1, 0), v3(2, 1, 0), v3(-2, 1, 0), v3(-2, -1, 0)],
          [v3(2, 0, 0), v3(3.2, 0, 0)],
          [v3(2.9, 0.25, 0), v3(3.2, 0, 0), v3(2.9, -0.25, 0)],
          [v3(ox, oy, 0), v3(ox, oy, oz)],
        ],
      },
      this.scene,
    );
    car.color = new Color3(0.85, 0.87, 0.9);
    car.isPickable = false;

    this.helpers = [g, car, axisTripod(this.scene, v3(ox, oy, oz), 0.6)];
  }

  clear(): void {
    this.mesh?.dispose(false, false);
    this.mesh = null;
    for (const h of this.helpers) h.dispose();
    this.helpers = [];
    this._pointCount = 0;
    this.requestRender();
  }

  dispose(): void {
    this.stage.dispose();
  }
}
