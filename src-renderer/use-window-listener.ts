/**
 * A window event handler for as long as the calling component is mounted (keyboard shortcuts of
 * the timelines and the profile editor): added on mount, removed on unmount.
 *
 *   useWindowListener('keydown', (e) => { … });
 */
import { onBeforeUnmount, onMounted } from 'vue';

export function useWindowListener<K extends keyof WindowEventMap>(type: K, handler: (e: WindowEventMap[K]) => void): void {
  onMounted(() => window.addEventListener(type, handler));
  onBeforeUnmount(() => window.removeEventListener(type, handler));
}
