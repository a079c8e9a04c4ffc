import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';
import {
  beamPattern,
  checkProfile,
  deleteProfile,
  getProfile,
  getProfileFile,
  importProfileFile,
  listProfiles,
  saveProfile,
} from '../profiles-service';

type ProfileMethods = 'profiles.list' | 'profiles.get' | 'profiles.getFile' | 'profiles.save' | 'profiles.delete' | 'profiles.import' | 'profiles.pattern';

/** Built-ins need no project; saving, deleting and importing work on the open project. */
export function profileHandlers(ctx: ServiceContext): Pick<Handlers, ProfileMethods> {
  const store = () => ctx.session?.store ?? null;
  const changed = () => ctx.events.emit({ type: 'project', entity: 'sensorProfiles' });
  return {
    'profiles.list': () => listProfiles(store()),
    'profiles.get': ({ id }) => getProfile(store(), id),
    'profiles.getFile': ({ id }) => getProfileFile(store(), id),
    'profiles.save': ({ profile }) => {
      const saved = saveProfile(ctx.requireSession().store, profile);
      changed();
      return saved;
    },
    'profiles.delete': ({ id }) => {
      const deleted = deleteProfile(ctx.requireSession().store, id);
      changed();
      return { deleted };
    },
    'profiles.import': async ({ path, id, name, model }) => {
      const session = ctx.requireSession();
      const { profile } = await importProfileFile(ctx.pools, session.store, path, { ...(id ? { id } : {}), ...(name ? { name } : {}), ...(model ? { model } : {}) });
      changed();
      return profile;
    },
    'profiles.pattern': ({ id, profile, maxRays }) => {
      if (id !== undefined) return beamPattern(ctx.pools, getProfile(store(), id), maxRays);
      if (profile === undefined) throw new ApiError('invalid_request', 'profiles.pattern: give either id or profile');
      return beamPattern(ctx.pools, checkProfile(profile), maxRays);
    },
  };
}
