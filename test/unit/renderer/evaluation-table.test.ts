import { describe, expect, it } from 'vitest';
import { evaluationRows, evaluationsCsv } from '../../../src-renderer/components/evaluation/evaluation-table';
import type { EvaluationInfo, RunInfo } from '../../../src-main/api/contract';

const metrics = (f1: number, warnings: string[] = []) => ({ packets: 10, precision: 0.9, recall: 0.8, f1, pointCloudError: 0.123456789, packetError: 1.5, warnings }) as unknown as EvaluationInfo['metrics'];
const ev = (id: number, runId: number, f1: number, warnings: string[] = []): EvaluationInfo =>
  ({ id, runId, realLogId: 2, runName: `run ${runId}`, realLogName: 'Test drive, "seed 1"', params: {}, metrics: metrics(f1, warnings), jobId: null, createdAt: '' }) as EvaluationInfo;
const run = (id: number, mode: string, params: Record<string, unknown>, sceneId: number | null = null): RunInfo => ({ id, mode, params, sceneId }) as unknown as RunInfo;

describe('the evaluations table', () => {
  const runs = [run(1, 'hybrid', {}, 3), run(2, 'mesh', {}, 3), run(3, 'physics', { neighbourLogId: 1 }), run(4, 'hybrid', { modelId: 7 })];
  const rows = evaluationRows([ev(11, 2, 0.9), ev(12, 1, 0.95), ev(13, 3, 0.97, ['barely overlap']), ev(14, 4, 0.93)], runs, [{ id: 3, name: 'Test scene' }]);

  it('names what was simulated and by which simulator, grouped by those', () => {
    expect(rows.map((r) => [r.id, r.scene, r.simulator])).toEqual([
      [14, 'model #7', 'hybrid'],
      [13, 'replay of log 1', 'neighbour'],
      [12, 'Test scene', 'hybrid'],
      [11, 'Test scene', 'mesh'],
    ]);
    expect(rows[1]!.warnings).toEqual(['barely overlap']);
  });

  it('writes CSV with a header, units in the header, quoted fields where needed', () => {
    const csv = evaluationsCsv(rows).split('\r\n');
    expect(csv[0]).toBe('evaluation,scene,simulator,run,drive log,packets,precision,recall,F1,point-cloud error (m),packet error (m),real rays paired (fraction),warnings');
    expect(csv[3]).toBe('12,Test scene,hybrid,run 1,"Test drive, ""seed 1""",10,0.900000,0.800000,0.950000,0.123457,1.50000,,');
    expect(csv).toHaveLength(rows.length + 2); // the header, the rows and the final line break
  });
});
