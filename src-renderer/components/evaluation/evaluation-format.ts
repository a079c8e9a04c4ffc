/** Labels and numbers of the Evaluation page. Pure, unit-tested. */
import type { EvaluationParams, RunInfo } from '../../../src-main/api/contract';
import type { EvaluationMetrics } from '../../../src-common/metrics';
import { defaultBody, parseBody, parseRegion, type EvaluationRegion } from '../../../src-common/evaluation-region';
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
  if (m.pairedFraction) rows.push(['Rays paired (real / sim)', `${fmtPercent(m.pairedFraction.real)} / ${fmtPercent(m.pairedFraction.sim)}`]);
  if (m.pairing) rows.push(['Pairing', PAIRING_LABELS[m.pairing]]);
  if (m.region && m.region.spec !== 'everything') rows.push(['Region', `${m.region.spec} (${formatCount(m.region.pairs)} pairs)`]);
  rows.push(['Time offset', `${m.timeOffsetS.toFixed(4)} s`], ['Evaluated in', `${m.seconds.toFixed(2)} s`]);
  return rows;
}

export const fmtPercent = (v: number | null): string => (v === null ? '—' : `${(100 * v).toFixed(1)} %`);

export const PAIRING_LABELS = { time: 'by firing time and direction', index: 'packet k with packet k', rays: 'ray for ray (run from the log\'s rays)' } as const;

/** What the evaluation form holds, as typed. */
export interface EvaluationFormState {
  toleranceDeg: number | null;
  /** The region's text form (src-common/evaluation-region.ts), '' for everything. */
  region: string;
  excludeBody: boolean;
  /** `L,W,H[,cx,cy,cz]`, '' for the default body. */
  body: string;
  rangeBinM: number | null;
  /** 'auto': ray for ray for a run from the log's rays, else by time. */
  pairing: 'auto' | 'time' | 'index' | 'rays';
}

/** The request's params from the form, or the first thing wrong with it (named as the form names it). */
export function formParams(f: EvaluationFormState): { params: EvaluationParams; error: string | null } {
  const params: EvaluationParams = {};
  if (f.toleranceDeg !== null && f.toleranceDeg !== 0.2) params.directionToleranceDeg = f.toleranceDeg;
  let region: EvaluationRegion = {};
  try {
    if (f.region.trim() !== '') region = parseRegion(f.region);
    if (f.excludeBody) region.excludeBody = f.body.trim() !== '' ? parseBody(f.body) : defaultBody();
  } catch (e) {
    return { params, error: (e as Error).message };
  }
  if (Object.keys(region).length > 0) params.region = region;
  if (f.rangeBinM !== null && f.rangeBinM !== 10) params.rangeBreakdownBinM = f.rangeBinM;
  if (f.pairing !== 'auto') params.packetPairing = f.pairing;
  return { params, error: null };
}

/** The per-class table: header (units stated) and rows; null when the log has no labels. */
export function classTable(m: EvaluationMetrics): { head: string[]; rows: string[][] } | null {
  if (!m.perClass) return null;
  return {
    head: ['Class', 'Real hits', 'Recall', 'Precision', 'Point-cloud error (m)'],
    rows: m.perClass.map((c) => [c.name, formatCount(c.realHits), fmtRatio(c.recall), fmtRatio(c.precision), c.pointCloudError === null ? '—' : c.pointCloudError.toFixed(3)]),
  };
}

/** The by-range table: header (units stated) and rows. */
export function rangeTable(m: EvaluationMetrics): { head: string[]; rows: string[][] } | null {
  if (!m.byRange || m.byRange.length === 0) return null;
  return {
    head: ['Range (m)', 'Real hits', 'Recall', 'Precision', 'Median range error (m)'],
    rows: m.byRange.map((b) => [
      `${b.fromM}–${b.toM}`,
      formatCount(b.realHits),
      fmtRatio(b.recall),
      fmtRatio(b.precision),
      b.rangeErrorMedianM === null ? '—' : b.rangeErrorMedianM.toFixed(3),
    ]),
  };
}
