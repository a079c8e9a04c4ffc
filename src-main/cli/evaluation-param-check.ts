import { EvaluationParams } from '../api/contract';
import { formatZodError } from '../services/validation';

/** Throws naming an unknown evaluation parameter (with the known ones) or a value out of range. */
export function checkEvaluationParams(params: Record<string, number>): void {
  const known = Object.keys(EvaluationParams.shape);
  for (const k of Object.keys(params)) if (!known.includes(k)) throw new Error(`evaluation parameter "${k}" is not known (known: ${known.join(', ')})`);
  const r = EvaluationParams.safeParse(params);
  if (!r.success) throw new Error(formatZodError(r.error));
}
