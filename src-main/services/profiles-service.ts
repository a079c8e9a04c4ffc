/**
 * Sensor profiles: built-ins (resources/, bundled) and a project's custom profiles, behind one
 * set of use cases for the API handlers, the CLI and the simulation service.
 *
 * - Built-ins are listed from the bundle; a project gets a copy of a built-in only when something
 *   in it references one (resolveProfileForUse: drive logs and runs hold the profile id as a
 *   foreign key). The copy is refreshed on each use.
 * - Custom profiles are stored in SI (the SensorProfile JSON), checked on the way in and on the
 *   way out (a row edited by another tool still fails with the field and the reason).
 * - Every error is an ApiError: bad_input (names the field or the file place), not_found, conflict.
 */
import { poolFor, type WorkerPools } from '../jobs/lanes';
import { ApiError, type ProfileSummary } from '../api/contract';
import type { ProfileFile, ProfilePattern, SensorProfile } from '../../src-common/sensor-profile';
import { RAD_TO_DEG } from '../../src-common/units';
import { ProfileError, laserCount, profileFromAny, toProfileFile, validateProfile } from '../../src-common/sensor-profile-schema';
import { builtinProfile, builtinProfiles, isBuiltinId } from '../../src-common/builtin-profiles';
import { raysPerRevolution } from '../../src-common/profile-timing';
import type { ProfilePatternInput } from '../../src-worker/tasks/profile-pattern';
import type { ProfileReadInput, ProfileReadOutput } from '../../src-worker/tasks/profile-read';
import { runTransient } from '../jobs/job-runner';
import type { ProjectStore } from '../store';
import { CALIBRATION_FILE, readSideFile } from './side-file';

const R2D = RAD_TO_DEG;

/** A ProfileError (a profile that fails its checks) as the API's bad_input; anything else passes through. */
function checked<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw e instanceof ProfileError ? new ApiError('bad_input', e.message) : e;
  }
}

function summary(p: SensorProfile): ProfileSummary {
  const elevations = p.groups.flatMap((g) => g.lasers.map((l) => l.elevation * R2D));
  const rays = raysPerRevolution(p);
  return {
    id: p.id,
    name: p.name,
    builtin: p.builtin,
    kind: p.kind,
    lasers: laserCount(p),
    rotationHz: p.rotationHz,
    rangeMax: p.range.max,
    source: p.source,
    description: p.description,
    elevationMinDeg: Math.min(...elevations),
    elevationMaxDeg: Math.max(...elevations),
    raysPerRevolution: rays,
    raysPerSecond: rays * p.rotationHz,
  };
}

/** The stored custom profile `id`, checked; null when the project has none of that id. */
function storedCustom(store: ProjectStore, id: string): SensorProfile | null {
  const row = store.profiles.get(id);
  if (!row || row.builtin) return null;
  return checked(() => {
    let value: unknown;
    try {
      value = JSON.parse(row.json);
    } catch {
      throw new ApiError('bad_input', `profile "${id}" in this project is not valid JSON`);
    }
    return { ...validateProfile(value, `profile "${id}" in this project`), builtin: false };
  });
}

/** Built-ins, then the project's custom profiles (by name). */
export function listProfiles(store: ProjectStore | null): ProfileSummary[] {
  const all = builtinProfiles().map((p) => summary(p));
  if (!store) return all;
  // A custom profile that shadows a built-in of its id (see getProfile) is listed once, as custom.
  const shadowed = new Set(store.profiles.list().filter((r) => !r.builtin && isBuiltinId(r.id)).map((r) => r.id));
  const out = shadowed.size ? all.filter((p) => !shadowed.has(p.id)) : all;
  const custom: ProfileSummary[] = [];
  for (const row of store.profiles.list()) {
    if (row.builtin && isBuiltinId(row.id)) continue; // a reference copy of a bundled built-in
    try {
      const p = storedCustom(store, row.id) ?? (row.builtin ? { ...validateProfile(JSON.parse(row.json)), builtin: true } : null);
      if (p) custom.push(summary(p));
    } catch (e) {
      // One damaged row must not hide the others: list it with what is known, the error as its description.
      custom.push({
        id: row.id,
        name: row.name,
        builtin: row.builtin,
        kind: 'spinning',
        lasers: 0,
        rotationHz: 0,
        rangeMax: 0,
        source: '',
        description: `cannot be read: ${(e as Error).message}`,
        elevationMinDeg: 0,
        elevationMaxDeg: 0,
        raysPerRevolution: 0,
        raysPerSecond: 0,
      });
    }
  }
  return [...out, ...custom];
}

/** A profile by id: a built-in (no project needed) or the open project's custom profile. */
export function getProfile(store: ProjectStore | null, id: string): SensorProfile {
  // A project's own profile of a built-in's id (saved before that built-in existed: vlp32c,
  // os1-64, …) keeps its meaning in that project; new ones cannot take a built-in's id (saveProfile).
  const c = store ? storedCustom(store, id) : null;
  if (c) return c;
  const b = builtinProfile(id);
  if (b) return b;
  throw new ApiError('not_found', store ? `no sensor profile "${id}" (neither built in nor in this project)` : `no built-in sensor profile "${id}" (open a project for its custom profiles)`);
}

export function getProfileFile(store: ProjectStore | null, id: string): ProfileFile {
  return toProfileFile(getProfile(store, id));
}

/** Either form → a checked custom SI profile (`origin` prefixes error messages). */
export function checkProfile(input: unknown, origin?: string): SensorProfile {
  return checked(() => ({ ...profileFromAny(input, { builtin: false, ...(origin ? { origin } : {}) }), builtin: false }));
}

/** Save a custom profile (insert or replace); refuses a built-in's id. */
export function saveProfile(store: ProjectStore, input: unknown): SensorProfile {
  const profile = checkProfile(input);
  if (isBuiltinId(profile.id)) {
    throw new ApiError('conflict', `"${profile.id}" is a built-in profile: give the custom profile another id (e.g. "${profile.id}-custom")`);
  }
  store.profiles.saveCustom(profile.id, profile.name, JSON.stringify(profile));
  return profile;
}

/**
 * The id under which exactly this profile is stored in the project, saving it as a custom profile
 * when it is not there yet: a calibration that decoded a log becomes the log's profile, so the
 * log's own sensor can be simulated without a separate `profile import`. Importing the same
 * calibration again finds the stored profile; a different profile under the same id (another
 * unit's calibration, or a built-in's id) is saved under the first free `id-2`, `id-3`, ….
 */
export function adoptProfile(store: ProjectStore, profile: SensorProfile): string {
  const custom: SensorProfile = { ...profile, builtin: false };
  for (let n = 1; ; n++) {
    const id = n === 1 ? custom.id : `${custom.id}-${n}`;
    const row = store.profiles.get(id);
    if (row ? !row.builtin && row.json === JSON.stringify({ ...custom, id }) : !isBuiltinId(id)) {
      if (!row) store.profiles.saveCustom(id, custom.name, JSON.stringify({ ...custom, id }));
      return id;
    }
    if (n > 1000) throw new ApiError('internal', `no free profile id for "${custom.id}"`);
  }
}

export function deleteProfile(store: ProjectStore, id: string): boolean {
  if (isBuiltinId(id)) throw new ApiError('conflict', `"${id}" is a built-in profile and cannot be deleted`);
  if (!store.profiles.get(id)) throw new ApiError('not_found', `no custom profile "${id}" in this project`);
  return store.profiles.deleteCustom(id);
}

/**
 * The profile a drive log or run will reference: the built-in (copied into the project, since
 * the reference is a foreign key) or the project's custom profile. For the import and simulation services.
 */
export function resolveProfileForUse(store: ProjectStore, id: string): SensorProfile {
  const p = getProfile(store, id);
  if (p.builtin) store.profiles.storeBuiltin(p.id, p.name, JSON.stringify(p));
  return p;
}

export interface ReadProfileFile {
  profile: SensorProfile;
  /** e.g. "ROS velodyne calibration YAML", "Thicket profile JSON". */
  format: string;
  /** The sensor model, detected or stated ('vlp16', 'vlp32c', 'hdl32e', 'hdl64e', 'vls128', 'generic', 'os1-128', …), or 'file'. */
  model: string;
}

/**
 * Read a calibration (or a Thicket profile JSON) from the host's disk → a custom profile (not saved).
 * Errors name the file, the place in it and the reason.
 */
export async function readProfileFile(pools: WorkerPools, path: string, opts: { id?: string; name?: string; model?: string } = {}): Promise<ReadProfileFile> {
  const { name, text } = readSideFile(path, CALIBRATION_FILE);
  const input: ProfileReadInput = { text, name, ...(opts.id ? { id: opts.id } : {}), ...(opts.name ? { profileName: opts.name } : {}), ...(opts.model ? { model: opts.model } : {}) };
  const out = (await runTransient(poolFor(pools, 'profile-read'), 'profile-read', input)).result as ProfileReadOutput;
  if ('error' in out) throw new ApiError('bad_input', out.error);
  return out;
}

/** Import a file into the project as a custom profile (refusing a built-in's id). */
export async function importProfileFile(pools: WorkerPools, store: ProjectStore, path: string, opts: { id?: string; name?: string; model?: string } = {}): Promise<ReadProfileFile> {
  const r = await readProfileFile(pools, path, opts);
  saveProfile(store, r.profile);
  return r;
}

/** One revolution's beams, decimated to at most `maxRays`, in the vehicle frame (built by a worker). */
export async function beamPattern(pools: WorkerPools, profile: SensorProfile, maxRays: number): Promise<ProfilePattern> {
  const input: ProfilePatternInput = { profile, maxRays };
  return (await runTransient(poolFor(pools, 'profile-pattern'), 'profile-pattern', input)).result as ProfilePattern;
}
