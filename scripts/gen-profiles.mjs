#!/usr/bin/env node
// Generates the built-in sensor profiles, resources/profiles/*.json, from the real per-laser
// calibrations under ../shared/data (velodyne_calib) and the device facts in
// src-worker/sensors/devices.ts. Run once after changing either; the output is committed and
// bundled into the app (src-worker/sensors/builtins.ts imports it), so nothing reads
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
const { toProfileFile, validateProfileFile, fromProfileFile } = await mod('src-worker/sensors/profile-schema.ts');

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
    id: 'hdl64e',
    name: 'Velodyne HDL-64E',
    file: 'velodyne_calib/64e_s2.1-sztaki.yaml',
    description:
      'Upper block of 32 lasers (ids 0–31) and lower block of 32 (ids 32–63); the upper block fires three times for each lower-block firing (003 §3.5.2): ' +
      'sequences every 32 µs (upper, 0.1152° at 10 Hz) and 96 µs (lower, 0.3456°), 1.333 M points/s; 9 upper + 3 lower sequences per packet (12 blocks). ' +
      '1–100 m, 2 mm resolution, rectangular 3.3 × 0.7 mrad spot, 1 m cutoff (003 Table 4). Per-laser angles, distance and offset corrections of a real unit ' +
      '(ROS velodyne calibration 64e_s2.1-sztaki.yaml, −24.85° … +4.97°). Assumed: 2 cm range noise, strongest return.',
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
  const { profile } = importCalibration(readFileSync(path, 'utf8'), v.file.split('/').pop(), { id: v.id, name: v.name });
  profiles.push({ ...profile, builtin: true, description: v.description, source: `${v.file.split('/').pop()} (github.com/ros-drivers/velodyne, velodyne_pointcloud/params)` });
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
