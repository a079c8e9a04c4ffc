import { expect } from 'vitest';

/** min < value < max, as two assertions, so a failure says which bound the value crossed (a missing value fails). */
export function expectBetween(value: number | null | undefined, min: number, max: number): void {
  expect(value).toBeGreaterThan(min);
  expect(value).toBeLessThan(max);
}
