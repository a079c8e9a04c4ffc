// @vitest-environment happy-dom
/**
 * The log timeline's keys on the window: Home goes to the first packet and End to the last;
 * Shift+→ steps ten (sweeps or packets, the current unit); a text field keeps its keys.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import { reactive } from 'vue';
import LogTimeline from '../../../src-renderer/components/LogTimeline.vue';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

function timeline() {
  const pb = reactive({
    packets: 64, packet: 20, sweep: 2, sweeps: 7, playing: false, unit: 'sweep', speed: 1, duration: 6.4, time: 2,
    highlight: true, misses: false, rangeCloud: null, timeline: { sweepBy: 'azimuth' },
    seek: vi.fn(), step: vi.fn(), toggle: vi.fn(), setHighlight: vi.fn(), setMisses: vi.fn(), setSpeed: vi.fn(), setUnit: vi.fn(),
  });
  wrapper = mount(LogTimeline, { props: { pb: pb as never }, attachTo: document.body });
  const press = (key: string, opts: KeyboardEventInit = {}, target: EventTarget = window) => target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...opts }));
  return { pb, press };
}

describe('LogTimeline keys', () => {
  it('Home and End go to the first and the last packet', () => {
    const { pb, press } = timeline();
    press('End');
    expect(pb.seek).toHaveBeenLastCalledWith(63);
    press('Home');
    expect(pb.seek).toHaveBeenLastCalledWith(0);
  });

  it('Shift+→ steps ten of the current unit; keys typed in a field are left alone', () => {
    const { pb, press } = timeline();
    press('ArrowRight', { shiftKey: true });
    expect(pb.step).toHaveBeenLastCalledWith(1, 10);
    const input = document.createElement('input');
    document.body.appendChild(input);
    press('Home', {}, input);
    expect(pb.seek).not.toHaveBeenCalled();
  });
});
