/** The parameters each generated scene kind takes (`thicket scene generate --param k=v`, `scenes.generate`). */
export const SCENE_PARAMS = {
  offroad: ['sizeM', 'targetTriangles'],
  // mesh=1: the same strip as opaque meshes (for the physics and mesh modes)
  'hybrid-strip': ['lengthM', 'widthM', 'mesh'],
  'cylinder-stand': ['lambda', 'diameter', 'distance', 'width', 'depth'],
  'rod-bench': ['backgroundOffset'],
} as const satisfies Record<string, readonly string[]>;

export type GeneratedSceneKind = keyof typeof SCENE_PARAMS;

/** Throws naming the first unknown or non-positive parameter of a scene kind. */
export function checkSceneParams(kind: GeneratedSceneKind, params: Record<string, number>): void {
  const known: readonly string[] = SCENE_PARAMS[kind];
  for (const [k, v] of Object.entries(params)) {
    if (!known.includes(k)) throw new Error(`scene ${kind}: unknown parameter "${k}" (known: ${known.join(', ')})`);
    if (!(v > 0)) throw new Error(`scene ${kind}: parameter ${k} must be positive, got ${v}`);
  }
  if (kind === 'offroad' && (params.targetTriangles ?? 0) > 20_000_000) throw new Error('scene offroad: targetTriangles above 20,000,000 would not fit in memory comfortably');
}
