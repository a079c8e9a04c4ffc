/**
 * A 2-D canvas that fills its wrapper, as the studies' panels and the live drive's scene map use
 * it: the wrapper's CSS size and pixel ratio (a ResizeObserver), draws coalesced to one per
 * animation frame, the backing store kept at the size and cleared for each draw, and pointer
 * positions in the canvas's CSS pixels.
 */
import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue';

/** A draw's canvas: its context (identity transform, cleared), backing-store size W × H and pixel ratio. */
export interface CanvasFrame {
  ctx: CanvasRenderingContext2D;
  W: number;
  H: number;
  dpr: number;
}

export function useCanvasSurface(wrap: Ref<HTMLElement | null>, canvas: Ref<HTMLCanvasElement | null>, draw: () => void) {
  const size = ref({ w: 0, h: 0, dpr: 1 });
  let raf = 0;
  const frame = () => {
    raf = 0;
    draw();
  };
  /** Asks for a draw at the next animation frame (several asks, one draw). */
  const schedule = (): void => {
    if (!raf) raf = requestAnimationFrame(frame);
  };
  /** The canvas sized to the wrapper and cleared to `background`; null while it has no size. */
  function begin(background: string): CanvasFrame | null {
    const c = canvas.value;
    const { w, h, dpr } = size.value;
    if (!c || w <= 0 || h <= 0) return null;
    const W = Math.round(w * dpr), H = Math.round(h * dpr);
    if (c.width !== W || c.height !== H) {
      c.width = W;
      c.height = H;
    }
    const ctx = c.getContext('2d');
    if (!ctx) return null;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, W, H);
    return { ctx, W, H, dpr };
  }
  /** A pointer event's position in the canvas (CSS pixels). */
  const local = (e: MouseEvent): [number, number] => {
    const r = canvas.value!.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  let observer: ResizeObserver | null = null;
  onMounted(() => {
    observer = new ResizeObserver(() => {
      const el = wrap.value;
      if (el) size.value = { w: el.clientWidth, h: el.clientHeight, dpr: window.devicePixelRatio || 1 };
    });
    if (wrap.value) observer.observe(wrap.value);
    schedule();
  });
  onBeforeUnmount(() => {
    observer?.disconnect();
    if (raf) cancelAnimationFrame(raf);
    raf = 0;
  });
  return { size, schedule, begin, local };
}
