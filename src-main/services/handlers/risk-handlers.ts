import type { Handlers, ServiceContext } from '../service-context';
import { startRisk } from '../risk-service';

type RiskMethods = 'risk.start' | 'risks.list';

export function riskHandlers(ctx: ServiceContext): Pick<Handlers, RiskMethods> {
  return {
    'risk.start': (req) => ({ job: startRisk(ctx, req).job }),
    'risks.list': (req) =>
      ctx.requireSession().store.risks.list().filter((r) => (req.runId === undefined || r.runId === req.runId) && (req.realLogId === undefined || r.realLogId === req.realLogId)),
  };
}
