import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';
import { ProjectSession } from '../project-session';

type ProjectMethods = 'project.create' | 'project.open' | 'project.close' | 'project.current' | 'project.recent' | 'project.compact';

export function projectHandlers(ctx: ServiceContext): Pick<Handlers, ProjectMethods> {
  const switchTo = async (path: string, create: boolean) => {
    const full = resolve(path);
    if (create && existsSync(full)) throw new ApiError('conflict', `${full}: a file already exists there; open it or choose another name`);
    if (!create && !existsSync(full)) throw new ApiError('not_found', `${full}: no such project file`);
    // Open the new one first: if it fails, the current project stays open and unchanged.
    const next = ProjectSession.open(full, create, ctx.pools, ctx.events);
    const previous = ctx.session;
    ctx.session = next;
    await previous?.close();
    ctx.recent.touch(full);
    ctx.events.emit({ type: 'project', entity: 'project' });
    return next.store.info();
  };
  return {
    'project.create': ({ path }) => switchTo(path, true),
    'project.open': ({ path }) => switchTo(path, false),
    'project.close': async () => {
      const had = !!ctx.session;
      await ctx.session?.close();
      ctx.session = null;
      if (had) ctx.events.emit({ type: 'project', entity: 'project' });
      return { closed: had };
    },
    'project.current': () => ctx.session?.store.info() ?? null,
    'project.recent': () => ctx.recent.list(),
    'project.compact': () => {
      const session = ctx.requireSession();
      const running = session.runner.activeCount;
      if (running > 0) throw new ApiError('conflict', `cannot compact ${session.path} while ${running} job${running === 1 ? ' runs' : 's run'}: wait for them or cancel them`);
      const result = session.store.compact();
      ctx.events.emit({ type: 'project', entity: 'project' });
      return result;
    },
  };
}
