import type { Handlers, ServiceContext } from '../service-context';
import { compareLabels, exportLabels, importLabels, labelClasses, loadLabelCloud, saveLabelClasses, saveLabels, startPropose } from '../labels-service';

type LabelMethods = 'labels.classes' | 'labels.saveClasses' | 'labels.cloud' | 'labels.versions' | 'labels.save' | 'labels.compare' | 'labels.propose' | 'labels.import' | 'labels.export';

/** Labelling a drive log (docs/labeling.md). */
export function labelHandlers(ctx: ServiceContext): Pick<Handlers, LabelMethods> {
  return {
    'labels.classes': () => labelClasses(ctx.requireSession()),
    'labels.saveClasses': ({ classes }) => saveLabelClasses(ctx.requireSession(), classes),
    'labels.cloud': ({ logId, version }) => loadLabelCloud(ctx.requireSession(), logId, version),
    'labels.versions': ({ logId }) => ctx.requireSession().store.labels.versions(logId),
    'labels.save': (req) => saveLabels(ctx.requireSession(), ctx.events, req),
    'labels.compare': ({ logId, a, b }) => compareLabels(ctx.requireSession(), logId, a, b),
    'labels.propose': async ({ logId, minHeight }) => ({ job: (await startPropose(ctx.requireSession(), ctx.events, logId, minHeight)).job }),
    'labels.import': (req) => importLabels(ctx.requireSession(), ctx.events, req),
    'labels.export': (req) => exportLabels(ctx.requireSession(), req),
  };
}
