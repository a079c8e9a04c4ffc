import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';
import { startStudy, studyData } from '../study-service';
import { loadStudyCostmap, loadStudyRun } from '../study-views';
import { studyReport } from '../study-report';

type StudyMethods = 'studies.list' | 'studies.get' | 'studies.delete' | 'studies.run' | 'studies.costmap' | 'studies.report' | 'study.start';

export function studyHandlers(ctx: ServiceContext): Pick<Handlers, StudyMethods> {
  return {
    'studies.list': () => ctx.requireSession().store.studies.list(),
    'studies.get': ({ id }) => studyData(ctx.requireSession(), id),
    'studies.delete': ({ id }) => {
      const session = ctx.requireSession();
      const s = studyData(session, id);
      if (s.state === 'running' || s.state === 'queued') throw new ApiError('conflict', `study ${id} is running: cancel its job (${s.jobId}) first`);
      session.store.studies.delete(id);
      ctx.events.emit({ type: 'project', entity: 'studies', id });
      return { deleted: true };
    },
    'studies.run': (req) => loadStudyRun(ctx.requireSession(), req),
    'studies.costmap': (req) => loadStudyCostmap(ctx.requireSession(), req),
    'studies.report': ({ id }) => ({ html: studyReport(ctx.requireSession(), id) }),
    'study.start': async (req) => {
      const { job, study } = await startStudy(ctx, req);
      return { job: job.job, study };
    },
  };
}
