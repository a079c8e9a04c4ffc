import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cliTempHome, openCliServices, runCliOk } from '../../helpers/cli';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import type { RealExperiment } from '../../../src-main/services/real-experiment';

const tmp = cliTempHome();
const { env } = tmp;

/**
 * The real-data experiment across sensors (docs/fitting-and-primitives.md): RELLIS-3D scan 104,
 * the OS1-64 (organised, its empty cells as misses) fitted, the VLP-32C recorded at the same
 * instant 0.27 m away (its extrinsic) predicted.
 */
describe.skipIf(!HAS_SHARED_DATA)('thicket experiment across sensors (RELLIS-3D: fit the OS1-64, predict the VLP-32C)', () => {
  it('re-simulates the OS1-64 with precision and recall ≥ 0.97, and predicts the VLP-32C with a fraction of mesh primitives\' point error', async () => {
    const project = join(tmp.dir, 'rellis.thicket');
    runCliOk(['project', 'create', '--project', project, '--json'], env);
    runCliOk(['import', dataFile('rellis3d/000104.bin'), '--profile', 'os1-64-2048', '--project', project, '--json'], env);
    runCliOk(['import', dataFile('rellis3d/vel000104.bin'), '--profile', 'vlp32c', '--extrinsic', dataFile('rellis3d/vel2os1.yaml'), '--project', project, '--json'], env);
    const x = runCliOk(['experiment', '--project', project, '--train', '1', '--test', '2', '--risk-samples', '0', '--json'], env).json as RealExperiment;
    const row = (s: string) => x.table.find((r) => r.simulator === s)!;
    // Measured (seed 1): self-check precision 0.975, recall 0.972 (the goal: ≥ 0.97; 0.003 left
    // for sampling on other platforms). The VLP-32C, another sensor, reads the model without the
    // OS1-64's no-return rays: hybrid F1 0.849 (0.806 with them) against the replay's 0.842 —
    // the goal — and point-cloud error 1.043 m against the replay's 0.992 m (over every ray that
    // part is not met; the docs say why) and mesh primitives' 1.725 m.
    expect(x.selfCheck.precision!).toBeGreaterThan(0.967);
    expect(x.selfCheck.recall!).toBeGreaterThan(0.967);
    expect(row('hybrid').f1!).toBeGreaterThan(row('neighbour').f1!);
    // The run says how it read the model; the self-check (the OS1-64 itself) does not.
    // Without the two sectors where the VLP-32C's mount blinds it (no return from any laser below
    // the horizon): hybrid F1 0.879 and 0.968 m against the replay's 0.867 and 0.994 m — the goal.
    const y = runCliOk(['experiment', '--project', project, '--train', '1', '--test', '2', '--risk-samples', '0', '--region', 'exclude-azimuth=-120:-100,exclude-azimuth=100:120', '--json'], env).json as RealExperiment;
    const yRow = (s: string) => y.table.find((r) => r.simulator === s)!;
    expect(yRow('hybrid').f1!).toBeGreaterThan(yRow('neighbour').f1!);
    expect(yRow('hybrid').pointCloudError!).toBeLessThan(yRow('neighbour').pointCloudError!);
    const services = await openCliServices(env.THICKET_HOME, project);
    try {
      const runs = await services.call('runs.list', {});
      const params = (id: number) => runs.find((r) => r.id === id)!.params;
      expect(params(row('hybrid').run!).modelAsOtherSensor).toBe(true);
      expect(params(x.selfCheck.run!).modelAsOtherSensor).toBeUndefined();
    } finally {
      await services.close();
    }
    expect(row('hybrid').pointCloudError!).toBeLessThan(0.7 * row('mesh').pointCloudError!);
  }, 300_000);
});
