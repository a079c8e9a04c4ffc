/**
 * A Babylon view of terrain elements (ellipsoid-layers.ts): Gaussians as ONE low-poly sphere
 * mesh with a thin instance per ellipsoid (a matrix and a colour each: one draw call for
 * thousands), another for voxels, triangles as one flat-shaded unindexed mesh, raw points as a
 * point mesh, a box outline; lit by a hemispheric light, an orbit camera framing what is shown.
 * Rendering is on demand (point-stage.ts): an idle view costs nothing.
 */
import '@babylonjs/core/Meshes/thinInstanceMesh';
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { CreateIcoSphere } from '@babylonjs/core/Meshes/Builders/icoSphereBuilder';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { PointStage } from './point-stage';
import { createLineList } from './line-list';
import type { ElementLayers, InstanceLayer } from './ellipsoid-layers';

export type ElementLayerName = 'ellipsoids' | 'voxels' | 'triangles' | 'points' | 'box';

/** Sphere detail by instance count: 180 faces for a primitive's few hundred, 20 for a scene's tens of thousands. */
export function sphereSubdivisions(instances: number): number {
  return instances <= 3_000 ? 3 : instances <= 20_000 ? 2 : 1;
}

export class ElementScene {
  private readonly stage: PointStage;
  private readonly camera: ArcRotateCamera;
  private readonly lit: StandardMaterial;
  private readonly meshes = new Map<ElementLayerName, Mesh | LinesMesh>();
  private readonly visible = new Map<ElementLayerName, boolean>();
  private size: [number, number, number] = [10, 10, 10];

  constructor(canvas: HTMLCanvasElement) {
    this.stage = new PointStage(canvas, ['pointerdown', 'pointermove', 'wheel']);
    const scene = this.stage.scene;
    this.camera = new ArcRotateCamera('orbit', -Math.PI / 2 - 0.6, 1.1, 20, Vector3.Zero(), scene);
    this.camera.wheelDeltaPercentage = 0.02;
    this.camera.upperBetaLimit = Math.PI * 0.6;
    this.camera.attachControl(true);
    scene.activeCamera = this.camera;
    this.stage.follow(this.camera);

    // Sky from above, a dim earth colour from below: shapes read without any shadow maps.
    const light = new HemisphericLight('sky', new Vector3(0.3, 1, 0.2), scene);
    light.intensity = 1.0;
    light.groundColor = new Color3(0.3, 0.3, 0.34);
    light.specular = new Color3(0.08, 0.08, 0.08);

    this.lit = new StandardMaterial('elements', scene);
    this.lit.diffuseColor = Color3.White(); // times the instance / vertex colour
    this.lit.specularColor = new Color3(0.1, 0.1, 0.1);
    this.lit.backFaceCulling = false;
    this.lit.twoSidedLighting = true; // mesh triangles have no consistent winding
  }

  setVisible(name: ElementLayerName, on: boolean): void {
    this.visible.set(name, on);
    const m = this.meshes.get(name);
    if (m) m.setEnabled(on);
    this.stage.requestRender();
  }

  /** Replace what is shown; `reframe` points the camera at it (a new subject, not a new σ). Resolves once drawn. */
  async show(layers: ElementLayers, reframe: boolean): Promise<void> {
    this.clear();
    const scene = this.stage.scene;
    if (layers.ellipsoids) this.meshes.set('ellipsoids', this.instanced('ellipsoids', layers.ellipsoids));
    if (layers.voxels) this.meshes.set('voxels', this.instanced('voxels', layers.voxels));
    if (layers.triangles && layers.triangles.count) {
      const t = layers.triangles;
      const mesh = new Mesh('triangles', scene);
      mesh.isUnIndexed = true;
      const data = new VertexData();
      data.positions = t.positions;
      data.normals = t.normals;
      data.colors = t.colors;
      data.applyToMesh(mesh, true);
      mesh.hasVertexAlpha = false; // opaque: no blending, no sorting
      this.setup(mesh);
      this.meshes.set('triangles', mesh);
    }
    if (layers.points && layers.points.count) {
      this.meshes.set('points', this.stage.pointsMesh('points', layers.points.positions, layers.points.colors));
    }
    if (layers.box) {
      this.meshes.set('box', createLineList('box', scene, layers.box, { color: [0.9, 0.75, 0.35], alpha: 1 }));
    }
    for (const [name, m] of this.meshes) m.setEnabled(this.visible.get(name) ?? true);
    this.size = layers.size;
    if (reframe) this.frame();
    await this.stage.drawn();
  }

  /** New per-instance or per-vertex colours for a layer (highlighting); same length as shown. */
  setColors(name: 'ellipsoids' | 'voxels' | 'triangles', colors: Float32Array): void {
    const m = this.meshes.get(name) as Mesh | undefined;
    if (!m) return;
    if (name === 'triangles') m.updateVerticesData('color', colors);
    else m.thinInstanceSetBuffer('color', colors, 4, false);
    this.stage.requestRender();
  }

  /** Frame what is shown with the orbit camera (the "reset view" button). */
  frame(): void {
    const diag = Math.max(0.5, Math.hypot(...this.size));
    const c = this.camera;
    c.target = Vector3.Zero();
    c.alpha = -Math.PI / 2 - 0.6;
    c.beta = 1.1;
    c.radius = diag * 1.25;
    c.lowerRadiusLimit = diag * 0.01;
    c.upperRadiusLimit = diag * 10;
    c.minZ = Math.max(0.005, diag / 5000);
    c.maxZ = diag * 30;
    c.panningSensibility = 2000 / diag;
    this.stage.requestRender(200);
  }

  requestRender(ms = 100): void {
    this.stage.requestRender(ms);
  }

  private instanced(name: string, layer: InstanceLayer): Mesh {
    const mesh = CreateIcoSphere(name, { radius: 1, subdivisions: sphereSubdivisions(layer.count), flat: false }, this.stage.scene);
    this.setup(mesh);
    mesh.thinInstanceSetBuffer('matrix', layer.matrices.subarray(0, 16 * layer.count), 16, true);
    mesh.thinInstanceSetBuffer('color', layer.colors.subarray(0, 4 * layer.count), 4, false);
    mesh.hasVertexAlpha = false;
    return mesh;
  }

  private setup(mesh: Mesh): void {
    mesh.material = this.lit;
    mesh.isPickable = false;
    mesh.alwaysSelectAsActiveMesh = true; // a few meshes, always in view: skip culling
  }

  clear(): void {
    for (const m of this.meshes.values()) m.dispose(false, false);
    this.meshes.clear();
    this.stage.requestRender();
  }

  dispose(): void {
    this.clear();
    this.stage.dispose();
  }
}
