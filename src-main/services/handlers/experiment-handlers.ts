import type { Handlers, ServiceContext } from '../service-context';
import type { ExperimentHost } from '../experiment-service';
import { runRealExperiment } from '../real-experiment';

/** The experiment calls the API itself (as a user would, job by job), so it needs the host's `call`. */
export function experimentHandlers(host: ServiceContext & ExperimentHost): Pick<Handlers, 'experiments.run'> {
  return {
    'experiments.run': (req) =>
      runRealExperiment(host, {
        trainLogId: req.trainLogId,
        testLogId: req.testLogId,
        seed: req.seed,
        ...(req.profileId ? { profileId: req.profileId } : {}),
        fitParams: req.fitParams,
        evaluationParams: req.params,
      }),
  };
}
