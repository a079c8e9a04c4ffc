import type { Handlers, ServiceContext } from '../service-context';
import { getNoiseModel, listNoiseModels, startNoiseLearning } from '../noise-service';

type NoiseMethods = 'noise.learn' | 'noise.list' | 'noise.get';

export function noiseHandlers(ctx: ServiceContext): Pick<Handlers, NoiseMethods> {
  return {
    'noise.learn': (req) => ({ job: startNoiseLearning(ctx, req).job }),
    'noise.list': () => listNoiseModels(ctx),
    'noise.get': ({ id }) => getNoiseModel(ctx, id),
  };
}
