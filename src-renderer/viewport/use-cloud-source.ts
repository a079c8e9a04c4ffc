/**
 * The state behind a page that shows one stored cloud (a drive log or a simulation run): its
 * metadata and decimated cloud, reloaded when the id or the point budget changes (stale replies
 * dropped), recoloured locally when the colour mode changes, and marked missing when the entity
 * disappears (deleted in another window or from the CLI).
 */
import { computed, onBeforeUnmount, ref, shallowRef, watch } from 'vue';
import type { Ref } from 'vue';
import type { CloudData, ColorMode } from '../../src-main/api/contract';
import { useAppStore } from '../stores/app';
import { colorizeCloud } from './cloud-colors';
import type { Colored } from './cloud-colors';
import { formatCount } from '../format';
import { storedRef } from '../stored-ref';

export interface CloudSourceOptions<I> {
  id: () => number;
  /** Metadata and cloud for an id at a point budget. */
  fetch: (id: number, budget: number) => Promise<[I, CloudData]>;
  /** Whether the entity is still listed (watching it turning false marks the page missing). */
  listed: () => boolean;
  /** sessionStorage key for this kind of page's colour mode, and its default. */
  colorModeKey: string;
  defaultColorMode: ColorMode;
  /** "Cannot load the drive log": the alert's title on failure. */
  errorTitle: string;
}

export function useCloudSource<I>(opts: CloudSourceOptions<I>) {
  const app = useAppStore();
  const info = ref<I | null>(null) as Ref<I | null>;
  const missing = ref(false);
  const cloud = shallowRef<CloudData | null>(null);
  const colored = shallowRef<Colored | null>(null);
  const loading = ref(false);
  const budget = storedRef(sessionStorage, 'thicket.budget', 1_000_000);
  const colorMode = storedRef<ColorMode>(sessionStorage, opts.colorModeKey, opts.defaultColorMode);

  let seq = 0;
  async function load() {
    const mine = ++seq;
    loading.value = true;
    try {
      const [meta, data] = await opts.fetch(opts.id(), budget.value);
      if (mine !== seq) return;
      info.value = meta;
      missing.value = false;
      colored.value = colorizeCloud(data, colorMode.value);
      cloud.value = data;
    } catch (e) {
      if (mine !== seq) return;
      if ((e as { code?: string }).code === 'not_found') missing.value = true;
      else app.reportError(opts.errorTitle, e);
    } finally {
      if (mine === seq) loading.value = false;
    }
  }

  watch(() => [opts.id(), budget.value], load, { immediate: true });
  watch(colorMode, (mode) => {
    if (cloud.value) colored.value = colorizeCloud(cloud.value, mode, colored.value?.colors);
  });
  watch(opts.listed, (present, was) => {
    if (was && !present) missing.value = true;
  });

  const shown = computed(() => (cloud.value ? `${formatCount(cloud.value.positions.length / 3)} of ${formatCount(cloud.value.totalPoints)} points` : ''));

  onBeforeUnmount(() => {
    seq++;
    cloud.value = null;
  });

  return { info, missing, cloud, colored, loading, budget, colorMode, shown };
}
