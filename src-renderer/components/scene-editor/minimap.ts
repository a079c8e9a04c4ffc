/**
 * The scene editor's minimap (docs/design.md, *Scene editor*): the terrain seen from straight
 * above, north up, drawn on a 2D canvas — its extent shaded by height, the placements as dots in
 * their class colours (the selection ringed), the sensor preview's vehicle, and the camera's
 * target with a wedge along its view direction. The mapping between the map's pixels and the
 * world and the terrain's shading are pure (unit-tested); `drawMinimap` paints a frame.
 */
import { classColor } from '../../../src-common/colormaps';
import type { TerrainGrid } from '../../../src-common/scene-authoring';
import { groundHeading } from './camera-views';

export interface MapLayout {
  /** World x, y of the map's south-west corner. */
  x0: number;
  y0: number;
  /** Map pixels (CSS) per metre. */
  scale: number;
  width: number;
  height: number;
}

/** The terrain's extent fitted into `size` CSS pixels on its longer side, north up. */
export function mapLayout(grid: Pick<TerrainGrid, 'nx' | 'ny' | 'cell' | 'x0' | 'y0'>, size: number): MapLayout {
  const w = Math.max(grid.cell, (grid.nx - 1) * grid.cell), h = Math.max(grid.cell, (grid.ny - 1) * grid.cell);
  const scale = size / Math.max(w, h);
  return { x0: grid.x0, y0: grid.y0, scale, width: Math.round(w * scale), height: Math.round(h * scale) };
}

/** World (x, y) → map pixel (CSS, from the top-left corner). */
export function toMap(m: MapLayout, x: number, y: number): [number, number] {
  return [(x - m.x0) * m.scale, m.height - (y - m.y0) * m.scale];
}

/** Map pixel → world (x, y), clamped to the terrain's extent (a drag past the edge stops at it). */
export function fromMap(m: MapLayout, px: number, py: number): [number, number] {
  const cx = Math.min(m.width, Math.max(0, px)), cy = Math.min(m.height, Math.max(0, py));
  return [m.x0 + cx / m.scale, m.y0 + (m.height - cy) / m.scale];
}

/**
 * One RGBA pixel per grid node, north row first: dark olive at the lowest ground to pale sand at
 * the highest (a flat terrain in between); nodes without ground are transparent.
 */
export function terrainShade(grid: Pick<TerrainGrid, 'nx' | 'ny' | 'z'>): Uint8ClampedArray<ArrayBuffer> {
  const { nx, ny, z } = grid;
  let lo = Infinity, hi = -Infinity;
  for (const v of z) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const out = new Uint8ClampedArray(4 * nx * ny);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const v = z[j * nx + i]!;
      if (!Number.isFinite(v)) continue;
      const t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
      const o = 4 * ((ny - 1 - j) * nx + i);
      out[o] = 62 + 120 * t;
      out[o + 1] = 70 + 105 * t;
      out[o + 2] = 50 + 80 * t;
      out[o + 3] = 255;
    }
  }
  return out;
}

export interface MinimapDot {
  x: number;
  y: number;
  cls: number;
  selected: boolean;
}

export interface MinimapFrame {
  layout: MapLayout;
  /** The shaded terrain at one pixel per grid node (terrainShade), drawn stretched over the map. */
  terrain: CanvasImageSource;
  dots: readonly MinimapDot[];
  vehicle: { x: number; y: number; yaw: number } | null;
  camera: { x: number; y: number; alpha: number } | null;
}

const GRID_M = 10;

/** Paints a frame on a canvas sized layout × devicePixelRatio. */
export function drawMinimap(ctx: CanvasRenderingContext2D, f: MinimapFrame, dpr: number): void {
  const m = f.layout;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, m.width, m.height);
  ctx.imageSmoothingEnabled = true;
  ctx.drawImage(f.terrain, 0, 0, m.width, m.height);
  // Faint lines every GRID_M metres, as the 3D view's checker, so distances read.
  ctx.strokeStyle = 'rgba(0,0,0,0.18)';
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let x = Math.ceil(m.x0 / GRID_M) * GRID_M; x <= m.x0 + m.width / m.scale; x += GRID_M) {
    const px = Math.round(toMap(m, x, 0)[0]) + 0.5;
    ctx.moveTo(px, 0);
    ctx.lineTo(px, m.height);
  }
  for (let y = Math.ceil(m.y0 / GRID_M) * GRID_M; y <= m.y0 + m.height / m.scale; y += GRID_M) {
    const py = Math.round(toMap(m, 0, y)[1]) + 0.5;
    ctx.moveTo(0, py);
    ctx.lineTo(m.width, py);
  }
  ctx.stroke();
  for (const d of f.dots) {
    const [px, py] = toMap(m, d.x, d.y);
    const [r, g, b] = classColor(d.cls);
    ctx.beginPath();
    ctx.arc(px, py, d.selected ? 3.5 : 2.8, 0, 2 * Math.PI);
    ctx.fillStyle = `rgb(${Math.round(255 * r)},${Math.round(255 * g)},${Math.round(255 * b)})`;
    ctx.fill();
    // A dark rim keeps light class colours apart from the pale high ground; the selection's is yellow.
    ctx.lineWidth = d.selected ? 2 : 1;
    ctx.strokeStyle = d.selected ? 'rgb(255,219,77)' : 'rgba(0,0,0,0.6)';
    ctx.stroke();
  }
  if (f.vehicle) {
    const [px, py] = toMap(m, f.vehicle.x, f.vehicle.y);
    ctx.save();
    ctx.translate(px, py);
    ctx.rotate(-f.vehicle.yaw); // map y points south
    ctx.fillStyle = 'rgb(255,61,255)';
    ctx.fillRect(-4, -2.5, 8, 5);
    ctx.restore();
  }
  if (f.camera) {
    const [px, py] = toMap(m, f.camera.x, f.camera.y);
    const [hx, hy] = groundHeading(f.camera.alpha);
    const a = Math.atan2(-hy, hx), spread = 0.4, len = 16;
    ctx.beginPath();
    ctx.moveTo(px, py);
    ctx.arc(px, py, len, a - spread, a + spread);
    ctx.closePath();
    ctx.fillStyle = 'rgba(90,200,255,0.3)';
    ctx.fill();
    ctx.strokeStyle = 'rgb(90,200,255)';
    ctx.lineWidth = 1;
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(px, py, 3, 0, 2 * Math.PI);
    ctx.fillStyle = 'rgb(90,200,255)';
    ctx.fill();
  }
}
