/**
 * The sensor model ids a calibration can be stated as (the CLI's --model, the Sensors page's
 * *Model* choice, the API's `model` / `sensorModel`): Velodyne models, and Ouster lines with their
 * beam count, optionally with a column mode (`os1-64-2048`). What each id means and how a
 * calibration is matched to one: src-worker/sensors/models.ts (docs/methods.md §5, *Sensor models*).
 */
export const VELODYNE_MODEL_IDS = ['vlp16', 'vlp32c', 'hdl32e', 'hdl64e', 'vls128'] as const;
export const OUSTER_LINE_IDS = ['os0', 'os1', 'os2'] as const;
export const OUSTER_BEAM_COUNTS = [32, 64, 128] as const;
export const OUSTER_COLUMN_MODES = [512, 1024, 2048] as const;

/** Every id without a column mode, Velodyne first. */
export const SENSOR_MODEL_IDS: readonly string[] = [...VELODYNE_MODEL_IDS, ...OUSTER_LINE_IDS.flatMap((l) => OUSTER_BEAM_COUNTS.map((b) => `${l}-${b}`))];
