import { describe, expect, it } from 'vitest';
import {
  isTypingTarget,
  lastAtOrBelow,
  packetAtTime,
  playAt,
  playbackKey,
  positionAt,
  shownRange,
  step,
  sweepAt,
  sweepRange,
} from '../../../src-renderer/viewport/playback';

// 25 packets, 10 ms apart; sweeps start at 0, 10, 20 (the last one short: 5 packets).
const T = {
  packets: 25,
  sweepStart: new Uint32Array([0, 10, 20]),
  packetTime: Float64Array.from({ length: 25 }, (_, p) => p * 0.01),
};

describe('sweeps', () => {
  it('finds the last element at or below a value', () => {
    expect([-1, 0, 5, 10, 11, 99].map((v) => lastAtOrBelow([0, 10, 20], v))).toEqual([-1, 0, 0, 1, 1, 2]);
    expect(lastAtOrBelow([], 3)).toBe(-1);
  });

  it('maps packets to sweeps and sweeps to packet ranges', () => {
    expect([0, 9, 10, 19, 20, 24].map((p) => sweepAt(T, p))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(sweepRange(T, 1)).toEqual({ from: 10, to: 20 });
    expect(sweepRange(T, 2)).toEqual({ from: 20, to: 25 });
    expect(sweepRange(T, 7)).toEqual({ from: 20, to: 25 }); // clamped
  });

  it('shows the whole sweep by sweep, the sweep so far by packet', () => {
    expect(shownRange(T, 13, 'sweep')).toEqual({ from: 10, to: 20 });
    expect(shownRange(T, 13, 'packet')).toEqual({ from: 10, to: 14 });
    expect(shownRange(T, 10, 'packet')).toEqual({ from: 10, to: 11 });
  });
});

describe('stepping', () => {
  it('steps one packet, clamped to the log', () => {
    expect(step(T, 5, 'packet', 1)).toBe(6);
    expect(step(T, 0, 'packet', -1)).toBe(0);
    expect(step(T, 24, 'packet', 1)).toBe(24);
  });

  it('steps to sweep starts; back from inside a sweep goes to its own start first', () => {
    expect(step(T, 0, 'sweep', 1)).toBe(10);
    expect(step(T, 13, 'sweep', 1)).toBe(20);
    expect(step(T, 20, 'sweep', 1)).toBe(20); // last sweep
    expect(step(T, 13, 'sweep', -1)).toBe(10);
    expect(step(T, 10, 'sweep', -1)).toBe(0);
    expect(step(T, 0, 'sweep', -1)).toBe(0);
    expect(step({ packets: 0, sweepStart: new Uint32Array([0]) }, 0, 'sweep', 1)).toBe(0);
  });
});

describe('playing', () => {
  it('finds the packet fired by a time', () => {
    expect(packetAtTime(T.packetTime, 0.1299)).toBe(12);
    expect(packetAtTime(T.packetTime, 0.13)).toBe(13);
    expect(packetAtTime(T.packetTime, -1)).toBe(0);
  });

  it('plays by packet and by sweep against the log clock, and ends after the last packet', () => {
    expect(playAt(T, 0.155, 'packet')).toEqual({ packet: 15, ended: false });
    expect(playAt(T, 0.155, 'sweep')).toEqual({ packet: 10, ended: false });
    expect(playAt(T, 0.205, 'sweep')).toEqual({ packet: 20, ended: false });
    expect(playAt(T, 0.5, 'packet')).toEqual({ packet: 24, ended: true });
    expect(playAt(T, 0.5, 'sweep')).toEqual({ packet: 20, ended: true });
  });
});

describe('trajectory position', () => {
  const traj = { packet: new Uint32Array([0, 10, 24]), position: new Float64Array([0, 0, 1, 10, 0, 1, 10, 14, 1]) };

  it('interpolates between kept poses and clamps at the ends', () => {
    expect(positionAt(traj, 5)).toEqual([5, 0, 1]);
    expect(positionAt(traj, 17)).toEqual([10, 7, 1]);
    expect(positionAt(traj, 24)).toEqual([10, 14, 1]);
    expect(positionAt(traj, 99)).toEqual([10, 14, 1]);
    expect(positionAt({ packet: new Uint32Array(0), position: new Float64Array(0) }, 3)).toBeNull();
  });
});

describe('keys', () => {
  it('binds space to play/pause, the arrows to steps (Shift: ten), Home/End to the first/last packet', () => {
    expect(playbackKey(' ', false)).toEqual({ action: 'toggle' });
    expect(playbackKey('ArrowRight', false)).toEqual({ action: 'step', dir: 1, count: 1 });
    expect(playbackKey('ArrowLeft', true)).toEqual({ action: 'step', dir: -1, count: 10 });
    expect(playbackKey('Home', false)).toEqual({ action: 'seek', to: 'first' });
    expect(playbackKey('End', true)).toEqual({ action: 'seek', to: 'last' });
    expect(playbackKey('ArrowUp', false)).toBeNull();
    expect(playbackKey('a', false)).toBeNull();
  });

  it('leaves text fields and controls with their own keys alone', () => {
    expect(isTypingTarget({ tagName: 'INPUT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', closest: (s: string) => (s.includes('.n-slider') ? {} : null) })).toBe(true);
    expect(isTypingTarget({ tagName: 'CANVAS', closest: () => null })).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
