import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';
import { evaluationData, startEvaluation } from '../evaluation-service';
import { evaluationRayErrors } from '../evaluation-ray-errors';

type EvaluationMethods = 'evaluate.start' | 'evaluations.list' | 'evaluations.get' | 'evaluations.delete' | 'evaluations.rayErrors';

export function evaluationHandlers(ctx: ServiceContext): Pick<Handlers, EvaluationMethods> {
  return {
    'evaluate.start': (req) => ({ job: startEvaluation(ctx, req).job }),
    'evaluations.list': (req) => ctx.requireSession().store.evaluations.list(req),
    'evaluations.get': ({ id }) => evaluationData(ctx.requireSession(), id),
    'evaluations.rayErrors': (req) => evaluationRayErrors(ctx.requireSession(), req),
    'evaluations.delete': ({ id }) => {
      const store = ctx.requireSession().store;
      if (!store.evaluations.delete(id)) throw new ApiError('not_found', `no evaluation ${id} in this project`);
      ctx.events.emit({ type: 'project', entity: 'evaluations', id });
      return { deleted: true };
    },
  };
}
