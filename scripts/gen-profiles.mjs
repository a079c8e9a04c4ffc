#!/usr/bin/env node
// Generates the built-in sensor profiles, resources/profiles/*.json, from the real per-laser
// calibrations under ../shared/data (velodyne_calib), the device facts in
// src-worker/sensors/devices.ts and, for the Ouster OS0 / OS1 / OS2, the nominal beam tables of
// their data sheets (src-worker/sensors/calibration/ouster-profile.ts). Run once after changing either; the output is committed and
// bundled into the app (src-common/builtin-profiles.ts imports it; it also derives the Ouster
// 512- and 2048-column modes from the 1024-column files), so nothing reads
// ../shared/data at run time.
//
//   node scripts/gen-profiles.mjs [--data DIR] [--check]
//
// --check: regenerate in memory and exit 1 if a committed file differs (for CI).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dataArg = args.indexOf('--data');
const data = resolve(dataArg >= 0 ? args[dataArg + 1] : join(root, '../shared/data'));
const check = args.includes('--check');

// The generator uses the app's own TypeScript (the same importer users run), through tsx.
const { register } = await import('tsx/esm/api');
register();
const mod = (p) => import(pathToFileURL(join(root, p)).href);
const { importCalibration } = await mod('src-worker/sensors/calibration/index.ts');
const { lms291Profile, LMS291_MODES } = await mod('src-worker/sensors/devices.ts');
const { toProfileFile, validateProfileFile, fromProfileFile } = await mod('src-common/sensor-profile-schema.ts');
const { nominalOusterCalibration, ousterProfileFrom, OUSTER_FOV_DEG, OUSTER_RANGE } = await mod('src-worker/sensors/calibration/ouster-profile.ts');
const { OUSTER_LINES, OUSTER_BEAMS } = await mod('src-worker/sensors/models.ts');

const velodyne = [
  {
    id: 'vlp16',
    name: 'Velodyne VLP-16',
    file: 'velodyne_calib/VLP16db.yaml',
    description:
      '16 lasers from −15° to +15° every 2°, fired 2.304 µs apart, one sequence every 55.296 µs (0.2° at 10 Hz), 24 sequences per packet; 100 m. ' +
      'Per-laser angles from the ROS velodyne calibration VLP16db.yaml. Assumed (not in 003): 0.5 m minimum range, 2 mm resolution, 1.5 cm range noise, ' +
      'rectangular 3.0 × 1.5 mrad spot (VLP-16 manual), strongest return, 1 m signal cutoff.',
  },
  {
    id: 'hdl32e',
    name: 'Velodyne HDL-32E',
    file: 'velodyne_calib/32db.yaml',
    description:
      '32 lasers from −30.67° to +10.67° (1.33° apart), fired 1.152 µs apart, one sequence every 46.08 µs (0.166° at 10 Hz), 12 sequences per packet; ' +
      '1–70 m, rectangular 3.3 × 0.7 mrad spot, 1 m signal cutoff (003 Table 2). Per-laser angles from the ROS velodyne calibration 32db.yaml. ' +
      'Assumed: 2 mm resolution, 2 cm range noise, strongest return.',
  },
  {
    id: 'vlp32c',
    name: 'Velodyne VLP-32C',
    file: 'velodyne_calib/VeloView-VLP-32C.yaml',
    description:
      '32 lasers from −25° to +15° (densest near the horizon), fired in pairs (channels 2k and 2k + 1 together) 2.304 µs apart, one sequence every 55.296 µs ' +
      '(0.2° at 10 Hz), 12 sequences per packet; 200 m, 4 mm range unit (Velodyne VLP-32C User Manual). Per-laser angles from the ROS velodyne calibration ' +
      'VeloView-VLP-32C.yaml. Assumed: 1 m minimum range, 3 cm range noise, rectangular 3.0 × 1.5 mrad spot (the VLS-128 User Manual\'s figure for the same optics), ' +
      'strongest return, 1 m signal cutoff.',
  },
  {
    id: 'hdl64e',
    name: 'Velodyne HDL-64E',
    file: 'velodyne_calib/64e_s2.1-sztaki.yaml',
    description:
      'Upper block of 32 lasers (ids 0–31) and lower block of 32 (ids 32–63); the upper block fires three times for each lower-block firing (003 §3.5.2): ' +
      'sequences every 32 µs (upper, 0.1152° at 10 Hz) and 96 µs (lower, 0.3456°), 1.333 M points/s; 9 upper + 3 lower sequences per packet (12 blocks). ' +
      '1–100 m, 2 mm resolution, rectangular 3.3 × 0.7 mrad spot, 1 m cutoff (003 Table 4). Per-laser angles, distance and offset corrections of a real unit ' +
      '(ROS velodyne calibration 64e_s2.1-sztaki.yaml, −24.85° … +4.97°). Assumed: 2 cm range noise, strongest return.',
  },
  {
    id: 'vls128',
    name: 'Velodyne VLS-128',
    file: 'velodyne_calib/VLS128.yaml',
    description:
      '128 lasers from −25° to +15°, fired 8 at a time in 16 firing groups 2.665 µs apart with one maintenance slot after group 8, one sequence every 53.3 µs ' +
      '(0.19° at 10 Hz), 3 sequences per packet (12 blocks of 32 channels); 245 m, 4 mm range unit, rectangular 3.0 × 1.5 mrad spot (Velodyne VLS-128 User Manual, ' +
      'Appendix F). Per-laser angles from the ROS velodyne calibration VLS128.yaml. Assumed: 1 m minimum range, 3 cm range noise, strongest return, 1 m signal cutoff.',
  },
];

const profiles = [];
for (const mode of LMS291_MODES) profiles.push(lms291Profile(mode.fovDeg, mode.resolutionDeg));
for (const v of velodyne) {
  const path = join(data, v.file);
  if (!existsSync(path)) {
    console.error(`gen-profiles: ${path} is missing (pass --data DIR, the folder holding velodyne_calib/)`);
    process.exit(1);
  }
  const { profile } = importCalibration(readFileSync(path, 'utf8'), v.file.split('/').pop(), { id: v.id, name: v.name, model: v.id });
  profiles.push({ ...profile, builtin: true, description: v.description, source: `${v.file.split('/').pop()} (github.com/ros-drivers/velodyne, velodyne_pointcloud/params)` });
}

// Ouster OS0 / OS1 / OS2 at 32, 64 and 128 beams: nominal units at 1024 × 10 (builtin-profiles.ts
// derives the 512- and 2048-column modes, whose only difference is the firing period).
for (const line of OUSTER_LINES) {
  for (const beams of OUSTER_BEAMS) {
    const id = `${line}-${beams}`;
    const L = line.toUpperCase();
    const fov = OUSTER_FOV_DEG[line];
    const r = OUSTER_RANGE[line];
    const c = nominalOusterCalibration(line, beams, 1024);
    profiles.push(ousterProfileFrom(c, id, {
      id,
      line,
      builtin: true,
      name: `Ouster ${L}-${beams}`,
      source: `Ouster ${L} data sheet (nominal beam table)`,
      description:
        `${beams} beams spread uniformly over ${fov}° (+${fov / 2}° … −${fov / 2}°), all beams of a column fired together, 16 columns per packet, 10 Hz; ` +
        `${r.min}–${r.max} m (Ouster ${L} data sheet). Nominal: no per-beam azimuth stagger (import the unit's metadata JSON for its measured beam angles). ` +
        `Sensor frame of the Ouster SDK: the ${c.beamToLidar[3]} mm beam-origin offset and the 36.18 mm lidar-origin height are in the per-beam origin offsets. ` +
        'Assumed: 1 mm resolution, 3 cm range noise, circular 2.3 mrad spot, strongest return, 1 m cutoff.',
    }));
  }
}

/** JSON with two-space indents, but each laser and each short number list on one line. */
function format(value, indent = '') {
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== 'object' || v === null)) return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    return `[\n${value.map((v) => inner + format(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if ('elevation' in value || entries.every(([, v]) => typeof v !== 'object' || v === null)) {
      return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')} }`;
    }
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${format(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

const outDir = join(root, 'resources/profiles');
mkdirSync(outDir, { recursive: true });
let stale = 0;
for (const p of profiles) {
  const file = toProfileFile(p);
  // Round trip through the checker: what we commit must load.
  fromProfileFile(validateProfileFile(JSON.parse(format(file)), p.id), true);
  const text = `${format(file)}\n`;
  const out = join(outDir, `${p.id}.json`);
  if (check) {
    const old = existsSync(out) ? readFileSync(out, 'utf8') : '';
    if (old !== text) {
      console.error(`gen-profiles: ${out} is out of date`);
      stale++;
    }
  } else {
    writeFileSync(out, text);
    console.error(`wrote ${out}`);
  }
}
if (stale) process.exit(1);
