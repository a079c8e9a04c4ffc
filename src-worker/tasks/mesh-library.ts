/**
 * The mesh baseline library (src-worker/primitives/mesh-library.ts): procedural tree and shrub
 * meshes, a few variants per class, or one per annotated box sized to it. Every mesh is built
 * triangle by triangle, so a large annotation takes a while: it runs here, and the primitives'
 * arrays are transferred back through the port (output 'library').
 */
import type { TaskContext } from './task-context';
import { meshLibrary, meshLibraryFor } from '../primitives/mesh-library';
import { transferList } from '../../src-common/shared-memory';

export type MeshLibraryInput =
  | { seed: number; variantsPerClass: number }
  /** One mesh per box of a mesh-library class, sized to it; ids from 1. */
  | { seed: number; boxes: { class: number; extents: readonly number[] }[] };

export function meshLibraryTask(input: MeshLibraryInput, ctx: TaskContext): { primitives: number } {
  const prims = 'boxes' in input ? meshLibraryFor(input.boxes, { seed: input.seed, idBase: 1 }) : meshLibrary({ seed: input.seed, variantsPerClass: input.variantsPerClass });
  ctx.post({ type: 'output', name: 'library', value: prims }, transferList(prims));
  return { primitives: prims.length };
}
