import type { Handlers, ServiceContext } from '../service-context';
import { startExport } from '../export-service';

export function exportHandlers(ctx: ServiceContext): Pick<Handlers, 'export.start'> {
  return {
    'export.start': async (req) => ({ job: (await startExport(ctx, req)).job }),
  };
}
