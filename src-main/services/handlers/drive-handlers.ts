import type { Handlers, ServiceContext } from '../service-context';
import { saveDrive, startDrive } from '../drive-service';

export function driveHandlers(ctx: ServiceContext): Pick<Handlers, 'drive.start' | 'drive.save'> {
  return {
    'drive.start': async (req) => {
      const { job, layout, runs } = await startDrive(ctx, req);
      return { job: job.job, layout, runs };
    },
    'drive.save': (req) => saveDrive(ctx, req),
  };
}
