/**
 * The log and export format ids every layer speaks: the API validates them, the worker's format
 * registry has one descriptor per log format (src-worker/formats/registry.ts), the renderer
 * lists them. Adding a format adds its id here and its descriptor there (docs/design.md,
 * "Log formats").
 */

export const LOG_FORMATS = ['kitti-bin', 'pcd', 'ply', 'las', 'velodyne-pcap', 'ouster-pcap', 'ros2-db3', 'mcap', 'sick-json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
/** What a stored drive log may be: an imported format, or 'simulated' (the demo's reference drives: simulated, no source file). */
export type DriveLogFormat = LogFormat | 'simulated';

export const EXPORT_FORMATS = ['pcd', 'ply', 'las', 'kitti', 'mcap'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
