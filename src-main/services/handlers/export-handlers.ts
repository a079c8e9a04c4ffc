import type { Handlers, ServiceContext } from '../service-context';
import { startExport } from '../export-service';
import { exportTarget } from '../export-target';

export function exportHandlers(ctx: ServiceContext): Pick<Handlers, 'export.start'> {
  return {
    'export.start': async (req) => ({ job: (await startExport(ctx, { ...req, path: await exportTarget(ctx, req) })).job }),
  };
}
