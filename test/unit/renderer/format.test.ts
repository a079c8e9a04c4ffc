import { describe, expect, it } from 'vitest';
import { formatCompact, formatCount, formatDuration, formatElapsed, formatMetres, formatSeconds } from '../../../src-renderer/format';

describe('display formatting', () => {
  it('groups counts and abbreviates budgets', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(NaN)).toBe('—');
    expect(formatCompact(250_000)).toBe('250 k');
    expect(formatCompact(1_000_000)).toBe('1 M');
    expect(formatCompact(2_500_000)).toBe('2.5 M');
    expect(formatCompact(950)).toBe('950');
  });

  it('reads a playback clock to 10 ms, to 0.1 s from 100 s', () => {
    expect(formatSeconds(0)).toBe('0.00 s');
    expect(formatSeconds(12.345)).toBe('12.35 s');
    expect(formatSeconds(99.994)).toBe('99.99 s');
    expect(formatSeconds(123.45)).toBe('123.5 s');
  });

  it('formats durations at a sensible precision', () => {
    expect(formatDuration(0.25)).toBe('250 ms');
    expect(formatDuration(3.456)).toBe('3.46 s');
    expect(formatDuration(42.3)).toBe('42.3 s');
    expect(formatDuration(245)).toBe('4 min 05 s');
    expect(formatDuration(3720)).toBe('1 h 02 min');
    expect(formatDuration(-1)).toBe('—');
  });

  it('measures elapsed job time until finish or now', () => {
    const start = '2025-01-01T10:00:00.000Z';
    expect(formatElapsed(start, '2025-01-01T10:01:05.000Z', 0)).toBe('1:05');
    expect(formatElapsed(start, null, Date.parse('2025-01-01T11:00:09.000Z'))).toBe('1:00:09');
    expect(formatElapsed(null, null, 0)).toBe('—');
  });

  it('picks metre precision from the span', () => {
    expect(formatMetres(123.456)).toBe('123.5 m');
    expect(formatMetres(1.23456)).toBe('1.23 m');
    expect(formatMetres(0.123456)).toBe('0.123 m');
  });
});
