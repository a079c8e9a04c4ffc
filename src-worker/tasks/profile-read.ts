/**
 * A calibration (Velodyne ROS YAML or db.xml, Ouster metadata JSON) or a Thicket profile JSON
 * → a custom sensor profile (docs/methods.md §5). Parsing a user's file is the worker's job, so
 * the host only reads the bytes. Bad input comes back as `{ error }` naming the file, the place
 * and the reason (the host answers it as bad_input); anything else is a bug and throws.
 */
import type { SensorProfile } from '../../src-common/sensor-profile';
import { ProfileError, fromProfileFile, isProfileFile, parseJsonText, validateProfileFile } from '../../src-common/sensor-profile-schema';
import { CalibrationError, importCalibration } from '../sensors/calibration';

export interface ProfileReadInput {
  /** The file's text and its name (for detection and error messages). */
  text: string;
  name: string;
  /** Overrides of the profile's id and display name. */
  id?: string;
  profileName?: string;
  /** The sensor model, overriding detection (--model: 'vlp32c', 'os1-64-2048', …). */
  model?: string;
}

export type ProfileReadOutput =
  | {
      profile: SensorProfile;
      /** e.g. "ROS velodyne calibration YAML", "Thicket profile JSON". */
      format: string;
      /** The sensor model (detected or stated: 'vlp16', 'vlp32c', 'hdl32e', 'hdl64e', 'vls128', 'generic', 'os1-128', …), or 'file'. */
      model: string;
    }
  | { error: string };

export function profileReadTask(input: ProfileReadInput): ProfileReadOutput {
  const { text, name } = input;
  const names = { ...(input.id ? { id: input.id } : {}), ...(input.profileName ? { name: input.profileName } : {}) };
  try {
    // A Thicket profile file (what `thicket profile show --json` prints) is accepted as it is.
    if (/\.json$/i.test(name) && text.includes('thicket-sensor-profile')) {
      const value = parseJsonText(text, name);
      if (isProfileFile(value)) {
        if (input.model) return { error: `${name}: --model ${input.model} applies to calibration files; a Thicket profile JSON states its own timing` };
        const profile = fromProfileFile({ ...validateProfileFile(value, name), ...names }, false);
        return { profile, format: 'Thicket profile JSON', model: 'file' };
      }
    }
    const r = importCalibration(text, name, { ...names, ...(input.model ? { model: input.model } : {}) });
    return { profile: r.profile, format: r.format, model: r.model };
  } catch (e) {
    if (e instanceof ProfileError || e instanceof CalibrationError) return { error: e.message };
    throw e;
  }
}
