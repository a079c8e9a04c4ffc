import { expect } from 'vitest';

/** The error `fn` throws, asserted to be an instance of `type`; fails the test when `fn` returns instead. */
export function thrownBy<E extends Error>(type: abstract new (...args: never[]) => E, fn: () => unknown): E {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(type);
    return e as E;
  }
  throw new Error(`expected a ${type.name}`);
}
