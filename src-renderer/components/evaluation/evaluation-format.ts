/** Labels and numbers of the Evaluation page. Pure, unit-tested. */
import type { RunInfo } from '../../../src-main/api/contract';
import type { EvaluationMetrics } from '../../../src-common/metrics';
import { formatCompact, formatCount } from '../../format';

/** The log a run re-simulated (trajectory kind 'log'), if any: the natural log to evaluate it against. */
export function sourceLogOf(run: Pick<RunInfo, 'trajectory'> | undefined): number | null {
  const t = run?.trajectory;
  return t && t.kind === 'log' && typeof t.logId === 'number' ? t.logId : null;
}

export const fmtMetres = (v: number | null): string => (v === null ? '—' : v < 1 ? `${(v * 100).toFixed(1)} cm` : `${v.toFixed(2)} m`);
export const fmtRatio = (v: number | null): string => (v === null ? '—' : v.toFixed(3));

export interface MetricTile {
  key: string;
  label: string;
  value: string;
  /** What the figure is (tooltip). */
  title: string;
}

/** The six headline figures of the issue, in its order. */
export function headlineTiles(m: EvaluationMetrics): MetricTile[] {
  return [
    { key: 'packets', label: 'Packets', value: formatCount(m.packets), title: 'Packets paired by time and evaluated' },
    { key: 'packetError', label: 'Packet error', value: fmtMetres(m.packetError), title: 'Mean over packets with a true hit of the mean distance between real and simulated points of true hits (Tallavajhula 2018, eq. 4.3)' },
    { key: 'precision', label: 'Precision', value: fmtRatio(m.precision), title: 'True hits / (true hits + false hits)' },
    { key: 'recall', label: 'Recall', value: fmtRatio(m.recall), title: 'True hits / (true hits + false misses)' },
    { key: 'f1', label: 'F1', value: fmtRatio(m.f1), title: '2 · precision · recall / (precision + recall)' },
    { key: 'pointCloudError', label: 'Point-cloud error', value: fmtMetres(m.pointCloudError), title: '½ (mean nearest-point distance sim → real + real → sim) (Tallavajhula 2018, eq. 4.9)' },
  ];
}

/** The details under the headline: hit counts, pairing leftovers, samples, static-scan distances. */
export function detailRows(m: EvaluationMetrics): [string, string][] {
  const rows: [string, string][] = [
    ['True hits', formatCount(m.trueHits)],
    ['False hits', formatCount(m.falseHits)],
    ['False misses', formatCount(m.falseMisses)],
    ['True misses', formatCount(m.trueMisses)],
    ['Packets with a true hit', formatCount(m.packetsWithTrueHits)],
    ['Unpaired packets (real / sim)', `${formatCount(m.unpairedPackets.real)} / ${formatCount(m.unpairedPackets.sim)}`],
    ['Unpaired rays (real / sim)', `${formatCount(m.unpairedRays.real)} / ${formatCount(m.unpairedRays.sim)}`],
  ];
  if (m.pointCloud) {
    const pc = m.pointCloud;
    rows.push(['Sim→real / real→sim', `${fmtMetres(pc.simToReal)} / ${fmtMetres(pc.realToSim)}`]);
    // Samples are whole clouds below the cap (the usual case): say so rather than repeat the counts.
    const sample = (kept: number, all: number) => (kept === all ? 'all' : `${formatCompact(kept)} of ${formatCompact(all)}`);
    rows.push(['Cloud points (real / sim)', `${formatCompact(pc.realPoints)} / ${formatCompact(pc.simPoints)}`]);
    rows.push(['NN targets (real / sim)', `${sample(pc.realTargets, pc.realPoints)} / ${sample(pc.simTargets, pc.simPoints)}${pc.exact ? '' : ' (estimate)'}`]);
  }
  if (m.staticScan) {
    rows.push(['Bhattacharyya (static)', m.staticScan.bhattacharyya === null ? '∞ (disjoint)' : m.staticScan.bhattacharyya.toFixed(3)]);
    rows.push(['Histogram match (static)', m.staticScan.histogramMatch === null ? '—' : `${m.staticScan.histogramMatch.toFixed(2)} bins`]);
  }
  rows.push(['Time offset', `${m.timeOffsetS.toFixed(4)} s`], ['Evaluated in', `${m.seconds.toFixed(2)} s`]);
  return rows;
}
