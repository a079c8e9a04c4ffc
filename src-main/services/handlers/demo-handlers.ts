import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';
import type { ExperimentHost } from '../experiment-service';
import { startDemo } from '../demo-service';
import { followDemo } from '../demo-follow';
import { projectHandlers } from './project-handlers';

type DemoMethods = 'demo.create' | 'annotations.list' | 'annotations.get';

/** The demo calls the API itself for its experiment (as `thicket demo` does), so it needs the host's `call`. */
export function demoHandlers(ctx: ServiceContext & ExperimentHost): Pick<Handlers, DemoMethods> {
  const projects = projectHandlers(ctx);
  return {
    'demo.create': async (req) => {
      let createdPath: string | null = null;
      if (req.path !== undefined) {
        const full = resolve(req.path);
        if (!existsSync(full)) createdPath = full;
        // On first start the app's own projects folder may not exist yet; other folders must.
        const dir = dirname(full);
        if (!existsSync(dir) && dir === resolve(ctx.options.defaultProjectDir)) mkdirSync(dir, { recursive: true });
        await (existsSync(full) ? projects['project.open']({ path: full }) : projects['project.create']({ path: full }));
      }
      const { job } = startDemo(ctx, req);
      // Followed to its end in the background; the card hears it through 'demo' events.
      void followDemo(ctx, { siteJob: job.id, seed: req.seed, experiment: req.experiment, createdPath });
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
