/**
 * A ref kept in Web Storage: read once at creation (the fallback when absent or unreadable), written
 * on every change. localStorage for view preferences that outlive the session (point size), and
 * sessionStorage for per-window choices (point budget, colour mode).
 *
 *   const pointSize = storedRef(localStorage, 'thicket.pointSize', 2);
 */
import { ref, watch, type Ref } from 'vue';

export function storedRef(storage: Storage, key: string, fallback: number): Ref<number>;
export function storedRef<T extends string>(storage: Storage, key: string, fallback: T): Ref<T>;
export function storedRef<T extends string | number>(storage: Storage, key: string, fallback: T): Ref<T> {
  const raw = storage.getItem(key);
  const initial = (typeof fallback === 'number' ? Number(raw) || fallback : raw || fallback) as T;
  const r = ref(initial) as Ref<T>;
  watch(r, (v) => storage.setItem(key, String(v)));
  return r;
}
