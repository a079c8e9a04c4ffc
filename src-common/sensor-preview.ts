/** One revolution over an authored scene, as the scene editor's sensor preview shows it (scenes.sensorPreview; src-worker/tasks/sensor-preview.ts). */
export interface SensorPreview {
  /** Hits in the world frame and their ground-truth class. */
  xyz: Float32Array;
  classId: Uint8Array;
  /** The sensor (world) and the ground under the vehicle's centre. */
  sensor: [number, number, number];
  groundZ: number;
  rays: number;
  hits: number;
  /** Whether the scene was built for this preview (else the worker's kept one was used), and the times (ms). */
  built: boolean;
  buildMs: number;
  simulateMs: number;
}
