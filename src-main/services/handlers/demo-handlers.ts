import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';
import { startDemo } from '../demo-service';
import { projectHandlers } from './project-handlers';

type DemoMethods = 'demo.create' | 'annotations.list' | 'annotations.get';

export function demoHandlers(ctx: ServiceContext): Pick<Handlers, DemoMethods> {
  const projects = projectHandlers(ctx);
  return {
    'demo.create': async (req) => {
      if (req.path !== undefined) {
        const full = resolve(req.path);
        // On first start the app's own projects folder may not exist yet; other folders must.
        const dir = dirname(full);
        if (!existsSync(dir) && dir === resolve(ctx.options.defaultProjectDir)) mkdirSync(dir, { recursive: true });
        await (existsSync(full) ? projects['project.open']({ path: full }) : projects['project.create']({ path: full }));
      }
      const { job } = startDemo(ctx, req);
      return { job, project: ctx.requireSession().store.info() };
    },
    'annotations.list': ({ logId }) => ctx.requireSession().store.annotations.list(logId),
    'annotations.get': ({ id }) => {
      const a = ctx.requireSession().store.annotations.read(id);
      if (!a) throw new ApiError('not_found', `no annotation ${id} in this project`);
      return a;
    },
  };
}
