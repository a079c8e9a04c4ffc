import type { AppServices } from '../../services/app-services';
import type { CommonArgs } from '../args';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { benchFoundation } from '../../services/bench-foundation';

export async function benchCommand(services: AppServices, _args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const foundation = await benchFoundation(services, (m) => progress.note(`bench: ${m}`));
  const f = foundation;
  const text = [
    `workers: ${f.workers}`,
    `pool:   ${f.pool.tasksPerSecond} tiny tasks/s (${f.pool.tasks} tasks)`,
    `store:  write ${f.store.writeMBps} MB/s, read ${f.store.readMBps} MB/s (${f.store.megabytes} MB of BLOB chunks)`,
    `import: ${f.import.pointsPerSecond} points/s, ${f.import.mbPerSecond} MB/s (${f.import.points} points in ${f.import.seconds} s)`,
    `display: ${f.display.points} points decimated to ${f.display.shown} in ${f.display.seconds} s`,
  ].join('\n');
  return { json: { foundation }, text };
}
