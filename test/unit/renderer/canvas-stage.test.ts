// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { h } from 'vue';

// happy-dom has no WebGL: Babylon's Engine and Scene are stood in for by fakes that record their
// life (the fake Engine throws, as the real one does, when told WebGL is missing).
const babylon = vi.hoisted(() => ({ webgl: true, engines: [] as FakeEngine[], observers: [] as FakeObserver[] }));
interface FakeEngine {
  canvas: HTMLCanvasElement;
  loop: (() => void) | null;
  resized: number;
  disposed: boolean;
}
interface FakeObserver {
  observed: Element[];
  disconnected: boolean;
  fire(): void;
}

vi.mock('@babylonjs/core/Engines/engine', () => ({
  Engine: class {
    loop: (() => void) | null = null;
    resized = 0;
    disposed = false;
    constructor(public canvas: HTMLCanvasElement) {
      if (!babylon.webgl) throw new Error('WebGL not supported');
      babylon.engines.push(this);
    }
    runRenderLoop(fn: () => void) {
      this.loop = fn;
    }
    stopRenderLoop() {
      this.loop = null;
    }
    resize() {
      this.resized++;
    }
    dispose() {
      this.disposed = true;
    }
  },
}));
vi.mock('@babylonjs/core/scene', () => ({
  Scene: class {
    rendered = 0;
    disposed = false;
    render() {
      this.rendered++;
    }
    isReady() {
      return true;
    }
    whenReadyAsync() {
      return Promise.resolve();
    }
    dispose() {
      this.disposed = true;
    }
  },
}));
vi.mock('@babylonjs/core/Materials/standardMaterial', () => ({ StandardMaterial: class {} }));

const { default: CanvasStage } = await import('../../../src-renderer/viewport/CanvasStage.vue');
const { PointStage } = await import('../../../src-renderer/viewport/point-stage');
const { serialTasks } = await import('../../../src-renderer/viewport/serial-tasks');

class Observer implements FakeObserver {
  observed: Element[] = [];
  disconnected = false;
  constructor(private readonly cb: () => void) {
    babylon.observers.push(this);
  }
  observe(el: Element) {
    this.observed.push(el);
  }
  disconnect() {
    this.disconnected = true;
  }
  fire() {
    this.cb();
  }
}

describe('CanvasStage', () => {
  beforeEach(() => {
    babylon.webgl = true;
    babylon.engines.length = 0;
    babylon.observers.length = 0;
    onView.mockClear();
    vi.stubGlobal('ResizeObserver', Observer);
  });
  afterEach(() => vi.unstubAllGlobals());

  const onView = vi.fn();
  const mountStage = () =>
    mount(CanvasStage, {
      props: { create: (c: HTMLCanvasElement) => new PointStage(c), canvasAttrs: { 'data-testid': 'the-canvas', 'data-ready': true }, onView },
      slots: { toolbar: () => h('span', { class: 'lbl' }, 'Size'), default: () => h('div', { class: 'legend' }, 'legend') },
    });

  it('creates the engine on the canvas on mount and disposes it on unmount', async () => {
    const w = mountStage();
    await flushPromises();
    const canvas = w.get('canvas').element as HTMLCanvasElement;
    expect(canvas.dataset.testid).toBe('the-canvas');
    expect(canvas.dataset.ready).toBe('true');
    expect(w.get('.toolbar').text()).toBe('Size');
    expect(w.get('.stage .legend').text()).toBe('legend');

    expect(babylon.engines).toHaveLength(1);
    const engine = babylon.engines[0]!;
    expect(engine.canvas).toBe(canvas);
    expect(onView).toHaveBeenCalledTimes(1);
    const stage = onView.mock.calls[0]![0] as InstanceType<typeof PointStage>;
    expect(stage.engine).toBe(engine);
    // The render loop runs; a resize reaches the engine.
    expect(engine.loop).not.toBeNull();
    expect(babylon.observers[0]!.observed).toEqual([canvas]);
    babylon.observers[0]!.fire();
    expect(engine.resized).toBe(1);
    expect(w.find('.overlay').exists()).toBe(false);

    w.unmount();
    expect(onView).toHaveBeenCalledTimes(2);
    expect(onView).toHaveBeenLastCalledWith(null);
    expect(engine.disposed).toBe(true);
    expect(engine.loop).toBeNull();
    expect((stage.scene as unknown as { disposed: boolean }).disposed).toBe(true);
    expect(babylon.observers[0]!.disconnected).toBe(true);
    expect(stage.disposed).toBe(true);
  });

  it('says the 3D view is unavailable where WebGL is missing, and creates nothing', async () => {
    babylon.webgl = false;
    const w = mountStage();
    await flushPromises();
    expect(onView).not.toHaveBeenCalled();
    expect(w.get('[data-testid="canvas-error"]').text()).toBe('3D view unavailable: WebGL not supported. WebGL2 is required.');
    expect(w.emitted('update:error')).toEqual([['3D view unavailable: WebGL not supported. WebGL2 is required.']]);
    w.unmount(); // nothing to dispose, nothing thrown
  });

  it('shows loading over an error, and an error over the empty text', async () => {
    const w = mount(CanvasStage, { props: { create: () => ({ dispose() {} }), loading: true, loadingText: 'Loading cloud…', error: 'broken', emptyText: 'nothing' } });
    expect(w.get('.overlay').text()).toBe('Loading cloud…');
    await w.setProps({ loading: false });
    expect(w.get('.overlay').text()).toBe('broken');
    await w.setProps({ error: '' });
    expect(w.get('.overlay').text()).toBe('nothing');
    expect(w.get('.help').text()).toBe('drag rotate · right-drag pan · wheel zoom');
    w.unmount();
  });
});

describe('serialTasks', () => {
  it('runs tasks one after another, and a failure is reported without stopping the next', async () => {
    const errors: string[] = [];
    const log: string[] = [];
    const enqueue = serialTasks((e) => errors.push(e.message));
    let release!: () => void;
    void enqueue(async () => {
      log.push('a start');
      await new Promise<void>((r) => (release = r));
      log.push('a end');
    });
    void enqueue(() => {
      throw new Error('b failed');
    });
    const last = enqueue(() => log.push('c'));
    await flushPromises();
    expect(log).toEqual(['a start']);
    release();
    await last;
    expect(log).toEqual(['a start', 'a end', 'c']);
    expect(errors).toEqual(['b failed']);
  });
});
