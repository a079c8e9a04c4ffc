/** Coalesce a burst of calls (a batch import emits many host events) into one, `ms` after the first. */
export function debounced(fn: () => void, ms = 120): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      fn();
    }, ms);
  };
}
