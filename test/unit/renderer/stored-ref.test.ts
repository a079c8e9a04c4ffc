// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { storedRef } from '../../../src-renderer/stored-ref';

describe('storedRef', () => {
  beforeEach(() => localStorage.clear());

  it('starts from the fallback, writes every change, and the next one reads it back', async () => {
    const size = storedRef(localStorage, 'thicket.pointSize', 2);
    expect(size.value).toBe(2);
    expect(localStorage.getItem('thicket.pointSize')).toBeNull();
    size.value = 3.5;
    await nextTick();
    expect(localStorage.getItem('thicket.pointSize')).toBe('3.5');
    expect(storedRef(localStorage, 'thicket.pointSize', 2).value).toBe(3.5);
  });

  it('keeps strings as strings and falls back on unreadable numbers', () => {
    localStorage.setItem('thicket.beamView', 'ground');
    localStorage.setItem('thicket.beamPointSize', 'not a number');
    expect(storedRef(localStorage, 'thicket.beamView', 'sphere').value).toBe('ground');
    expect(storedRef(localStorage, 'thicket.beamPointSize', 2).value).toBe(2);
  });
});
