/**
 * The scene editor's camera bookmarks as page state (docs/user-guide.md, *Scene editor*): four
 * slots per project and scene, read from localStorage when the scene changes and written on every
 * save. Saving and going back need the 3D view, which the page hands in when it has one.
 */
import { ref, watch, type Ref } from 'vue';
import { parseSlots, storageKey, withSlot, type CameraView, type ViewSlots } from './camera-views';

export interface CameraHolder {
  cameraView(): CameraView;
  setCameraView(v: CameraView): void;
}

export function useCameraViews(projectPath: Ref<string | null>, sceneId: Ref<number | null>, view: Ref<CameraHolder | null>) {
  const slots = ref<ViewSlots>(parseSlots(null));
  const key = () => (projectPath.value ? storageKey(projectPath.value, sceneId.value) : null);
  watch([projectPath, sceneId], () => {
    const k = key();
    slots.value = parseSlots(k ? localStorage.getItem(k) : null);
  }, { immediate: true });

  /** Bookmarks the camera's current state in slot `i` (0-based). */
  function save(i: number): void {
    const v = view.value;
    if (!v) return;
    slots.value = withSlot(slots.value, i, v.cameraView());
    const k = key();
    if (k) localStorage.setItem(k, JSON.stringify(slots.value));
  }
  /** Back to slot `i`'s view; an empty slot does nothing. */
  function recall(i: number): void {
    const s = slots.value[i];
    if (s && view.value) view.value.setCameraView(s);
  }
  return { slots, save, recall };
}
