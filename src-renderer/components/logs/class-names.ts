/**
 * A drive log's class legend with names: the open project's class list (labels.classes,
 * docs/labeling.md) where it names the id, else the built-in taxonomy (src-common/classes.ts),
 * else "class N" for an id neither knows.
 */
import type { LabelClass } from '../../../src-main/api/contract';
import { SITE_CLASS_NAMES } from '../../../src-common/classes';
import type { Legend } from '../../viewport/cloud-colors';

export function logClassName(id: number, classes: readonly LabelClass[] | null): string {
  const own = classes?.find((c) => c.id === id)?.name;
  if (own) return own;
  if (id === 0) return 'unlabelled';
  return (SITE_CLASS_NAMES as Record<number, string>)[id] ?? `class ${id}`;
}

/** The legend with its class entries named (scalar legends unchanged). */
export function withClassNames(legend: Legend, classes: readonly LabelClass[] | null): Legend {
  if (legend.kind !== 'classes') return legend;
  return { ...legend, entries: legend.entries.map((e) => ({ ...e, name: logClassName(e.id, classes) })) };
}
