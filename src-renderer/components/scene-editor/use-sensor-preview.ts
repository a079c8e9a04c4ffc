/**
 * The scene editor's sensor preview (docs/user-guide.md, *Scene editor*): a profile at a mount on
 * a vehicle placed on the terrain, and one revolution simulated by the host over the document as
 * it is (scenes.sensorPreview) — again whenever the vehicle, the sensor or the document changes.
 * One request is in flight at a time; changes meanwhile are sent as one when it answers, so a
 * dragged vehicle re-simulates as fast as the worker answers and ends on where it was dropped.
 */
import { computed, reactive, ref, shallowRef, watch, type Ref } from 'vue';
import type { Request, SensorPreview } from '../../../src-main/api/contract';
import { api } from '../../api';
import type { EditorState } from './editor-state';
import { authorRequest } from './editor-state';

export interface PreviewVehicle {
  x: number;
  y: number;
  yawDeg: number;
}

export const VEHICLE = { length: 2.5, width: 1.5 } as const;

/** The request for a document, sensor and vehicle (pure; unit-tested). */
export function previewRequest(s: EditorState, profileId: string, mount: { height: number; pitchDeg: number }, v: PreviewVehicle): Request<'scenes.sensorPreview'> {
  const { mode, terrain, placements } = authorRequest(s, '', null);
  return { mode, terrain, placements, profileId, mount: { height: mount.height, pitchDeg: mount.pitchDeg }, vehicle: { x: v.x, y: v.y, yawDeg: v.yawDeg, ...VEHICLE } };
}

export function useSensorPreview(doc: Ref<EditorState>, blocked: Ref<string>) {
  const on = ref(false);
  const profileId = ref('vlp16');
  const mount = reactive({ height: 2, pitchDeg: 0 });
  const vehicle = shallowRef<PreviewVehicle | null>(null);
  /** The vehicle while it is dragged (drawn there; previews follow it). */
  const dragging = shallowRef<PreviewVehicle | null>(null);
  const result = shallowRef<SensorPreview | null>(null);
  const error = ref('');
  const busy = ref(false);
  /** Previews answered (a test hook: each answer is one revolution). */
  const answered = ref(0);

  const shownVehicle = computed(() => dragging.value ?? vehicle.value);
  const request = computed(() => {
    const v = shownVehicle.value;
    if (!on.value || !v || blocked.value) return null;
    return previewRequest(doc.value, profileId.value, mount, v);
  });

  let pending: Request<'scenes.sensorPreview'> | null = null;
  async function send(req: Request<'scenes.sensorPreview'>): Promise<void> {
    if (busy.value) {
      pending = req;
      return;
    }
    busy.value = true;
    try {
      result.value = await api.call('scenes.sensorPreview', req);
      error.value = '';
      answered.value++;
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    } finally {
      busy.value = false;
    }
    const next = pending;
    pending = null;
    if (next) void send(next);
  }
  watch(request, (req) => {
    if (req) void send(req);
    else pending = null;
  });
  watch(on, (v) => {
    if (!v) result.value = null;
  });

  function placeAt(x: number, y: number): void {
    vehicle.value = { x, y, yawDeg: vehicle.value?.yawDeg ?? 0 };
    on.value = true;
  }
  function dragTo(x: number, y: number, done: boolean): void {
    const v = { x, y, yawDeg: (vehicle.value ?? { yawDeg: 0 }).yawDeg };
    if (done) {
      dragging.value = null;
      vehicle.value = v;
    } else dragging.value = v;
  }
  function setYaw(deg: number): void {
    if (vehicle.value) vehicle.value = { ...vehicle.value, yawDeg: deg };
  }

  return { on, profileId, mount, vehicle, shownVehicle, result, error, busy, answered, placeAt, dragTo, setYaw };
}

export type SensorPreviewState = ReturnType<typeof useSensorPreview>;
