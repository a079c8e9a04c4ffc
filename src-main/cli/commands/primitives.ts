import type { ExtractResult, PrimitiveInfo } from '../../api/contract';
import type { AppServices } from '../../services/app-services';
import { intFlag, numberFlag, requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';

/**
 * `thicket primitives extract --project P --model M [--annotation A | --auto] [--patch-cell 2]`:
 *   primitives from a fitted model's log, labelled by an annotation (default the log's own) or
 *   by clustering; prints {model, log, annotation, labels, segments, primitives, byClass, skipped, ids}.
 * `thicket primitives mesh --project P [--annotation A] [--seed N] [--variants N]`: the mesh
 *   baseline library (sized to an annotation's boxes, or nominal variants per class).
 * `thicket primitives list --project P`.
 */
export async function primitivesCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const v = args.values;
  const sub = args.positionals[1];
  await services.call('project.open', { path: requireProject(args) });
  if (sub === 'list') {
    const primitives = await services.call('primitives.list', {});
    return { json: { primitives }, text: primitives.map(line).join('\n') || 'no primitives' };
  }
  if (sub === 'mesh') {
    const annotationId = intFlag(v, 'annotation', 1);
    const { primitives } = await services.call('primitives.generateMesh', {
      seed: intFlag(v, 'seed') ?? 1,
      variants: intFlag(v, 'variants', 1, 20) ?? 3,
      ...(annotationId !== undefined ? { annotationId } : {}),
    });
    return { json: { primitives: primitives.map((p) => p.id), count: primitives.length }, text: primitives.map(line).join('\n') };
  }
  if (sub !== 'extract') throw new CliError(`primitives: unknown subcommand "${sub ?? ''}" (expected extract, mesh or list)`, 2);
  const modelId = intFlag(v, 'model', 1);
  if (modelId === undefined) throw new CliError('--model M is required (a fitted model id: `thicket fit list`)', 2);
  const annotationId = intFlag(v, 'annotation', 1);
  if (annotationId !== undefined && v.auto) throw new CliError('give --annotation or --auto, not both', 2);
  const { job } = await services.call('primitives.extract', {
    modelId,
    autoSegment: v.auto ?? false,
    patchCell: numberFlag(v, 'patch-cell', 0.5, 20) ?? 2,
    ...(annotationId !== undefined ? { annotationId } : {}),
  });
  const r = (await waitForJob(services, job.id, progress)) as unknown as ExtractResult;
  return {
    json: r as unknown as Record<string, unknown>,
    text: `${r.primitives} primitives from ${r.segments} segments (${r.labels}): ${Object.entries(r.byClass).map(([k, n]) => `${n} ${k}`).join(', ')}${r.skipped.length ? `; ${r.skipped.length} skipped` : ''}`,
  };
}

function line(p: PrimitiveInfo): string {
  const c = p.counts;
  return `${p.id}\t${p.library}\t${p.label}\t${p.extents.map((x) => x.toFixed(1)).join('×')} m\t${c.ellipsoids} ellipsoids, ${c.voxels} voxels, ${c.triangles} triangles`;
}
