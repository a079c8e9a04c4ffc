/**
 * One-at-a-time tasks for a 3D view: each upload (a cloud, a layer set, a beam pattern) waits for
 * the one before it, so two never interleave on the GPU buffers, and a task that fails is
 * reported and does not stop the ones queued after it.
 *
 *   const enqueue = serialTasks((e) => (error.value = `Cannot display the cloud: ${e.message}`));
 *   watch(() => props.cloud, () => void enqueue(async () => { … }));
 */
export function serialTasks(onError: (e: Error) => void): (task: () => unknown) => Promise<void> {
  let tail: Promise<void> = Promise.resolve();
  return (task) => {
    tail = tail.then(task).then(
      () => undefined,
      (e: unknown) => onError(e instanceof Error ? e : new Error(String(e))),
    );
    return tail;
  };
}
