/**
 * What a stored scene's metadata says that more than one layer reads: its trail (the sensor poses
 * a generated or reference scene was laid out along) and how high above the ground those poses are.
 */

export type Xy = [number, number];

/** Generated scenes (off-road, hybrid strip) put their trail's sensor poses this high above the ground (m): a vehicle's roof. */
export const GENERATED_TRAIL_SENSOR_HEIGHT_M = 1.8;

/** A scene's trail (x, y per point) from its metadata; empty when it has none. */
export function sceneTrail(meta: Record<string, unknown>): Xy[] {
  if (!Array.isArray(meta.trail)) return [];
  return (meta.trail as unknown[]).filter((p): p is number[] => Array.isArray(p) && p.length >= 2).map((p): Xy => [p[0]!, p[1]!]);
}
