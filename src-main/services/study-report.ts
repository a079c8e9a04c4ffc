/**
 * A study as ONE self-contained HTML page (no external files, no scripts): each run's final
 * costmap as an inline PNG (rendered and encoded in the worker, stored with the run) with its
 * track, last plan, start, goal and vehicle; the metrics table; for sweeps, a table per sensor
 * of a metric over the mounts' heights and pitches; and what each metric means.
 */
import type { StudySensorResult } from '../api/contract';
import type { ProjectSession } from './project-session';
import { studyData } from './study-service';
import { readRunArray } from './study-views';

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const num = (x: number | null, digits = 1) => (x === null ? '—' : x.toFixed(digits));
const mountText = (r: StudySensorResult) => `${num(r.mount.height, 2)} m, pitch ${num(r.mount.pitchDeg, 1)}°, yaw ${num(r.mount.yawDeg, 1)}°${r.mount.x || r.mount.y ? `, at (${r.mount.x}, ${r.mount.y}) m` : ''}`;

/** The metrics table's headers: words, with the unit in brackets where there is one. */
export const METRICS_HEAD = [
  '#',
  'Sensor',
  'Mount',
  'Outcome',
  'Cells observed',
  'Path length (m)',
  'Time to goal (s)',
  'Collisions',
  'False obstacles (cells)',
  'Missed obstacles',
  'Obstacles near the track',
  'Replans',
  'Lethal cells',
  'Scans',
];

const OUTCOMES: Record<string, string> = { goal: 'reached the goal', collision: 'collided', timeout: 'out of time' };
const outcomeText = (o: string) => OUTCOMES[o] ?? o;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;background:#16171b;color:#e6e6e6;margin:24px}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
.runs{display:flex;flex-wrap:wrap;gap:16px}
figure{margin:0;background:#1f2127;padding:8px;border-radius:6px}
figure img{width:400px;max-width:100%;image-rendering:pixelated;display:block}
figcaption{font-size:12px;margin-top:6px;max-width:400px}
table{border-collapse:collapse;margin-top:8px}td,th{border:1px solid #3a3d46;padding:3px 8px;text-align:right}
th{background:#262932}td:first-child,th:first-child{text-align:left}
.key span{display:inline-block;width:12px;height:12px;vertical-align:middle;margin:0 4px 0 12px}
.note{color:#a9adb8;font-size:12px;max-width:900px}`;

export function studyReport(session: ProjectSession, id: number): string {
  const s = studyData(session, id);
  const d = s.definition, L = s.layout, g = L.grid;
  const results = s.results ?? [];
  const dist = Math.hypot(L.goal[0] - L.start[0], L.goal[1] - L.start[1]);
  const figures = results.map((r) => {
    const png = readRunArray(session, id, r.seq, 'png');
    const src = `data:image/png;base64,${Buffer.from(png.buffer, png.byteOffset, png.byteLength).toString('base64')}`;
    return `<figure><img alt="costmap of ${esc(r.profile)}" src="${src}"><figcaption><b>${esc(r.profile)}</b> — ${esc(mountText(r))}<br>${esc(outcomeText(r.outcome))}${r.timeToGoal !== null ? ` in ${num(r.timeToGoal)} s` : ''}, ${r.cellsObserved} cells observed, ${r.falseObstacles} false obstacles, ${r.missedObstacles}/${r.obstacles} obstacles missed</figcaption></figure>`;
  });
  const rows = results.map((r) =>
    [r.seq, r.profile, mountText(r), outcomeText(r.outcome), r.cellsObserved, num(r.pathLength), num(r.timeToGoal), r.collisions, r.falseObstacles, r.missedObstacles, r.obstacles, r.replans, r.lethalCells, r.scans]
      .map((v) => `<td>${esc(v)}</td>`)
      .join(''),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Thicket sensor study: ${esc(s.name)}</title><style>${STYLE}</style></head>
<body>
<h1>Sensor study: ${esc(s.name)}</h1>
<p>Scene ${esc(d.sceneId)}; ${d.loop === 'closed' ? `closed loop, up to ${d.seconds} s` : `open loop: a fixed route, the map after ${d.seconds} s`}; scans simulated in ${esc(d.simulation)} mode, seed ${d.seed}.
Vehicle ${d.vehicle.length} × ${d.vehicle.width} m at up to ${d.vehicle.speed} m/s from (${num(L.start[0])}, ${num(L.start[1])}) to (${num(L.goal[0])}, ${num(L.goal[1])}), ${num(dist)} m apart.
Cost grid ${g.width} × ${g.height} cells of ${g.cellM} m from (${num(g.originX)}, ${num(g.originY)}); a point h above the ground costs min(100·h/${g.hMax}, 100); cells of cost ≥ ${g.lethalCost} are lethal.</p>
<h2>Costmaps at the end</h2>
<div class="runs">${figures.join('\n')}</div>
<p class="key">North up, one pixel per cell.<span style="background:#1c1c22"></span>unknown<span style="background:#288232"></span>cost 0<span style="background:#f0c828"></span>cost 50<span style="background:#e62828"></span>lethal
<span style="background:#fff"></span>track<span style="background:#00d2ff"></span>last plan<span style="background:#3c6eff"></span>goal<span style="background:#ff3cff"></span>vehicle</p>
<h2>Metrics</h2>
<table><tr>${METRICS_HEAD.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>
${rows.map((r) => `<tr>${r}</tr>`).join('\n')}</table>
${sweepTables(results)}
<p class="note">Cells observed: cells holding at least one return. Path length: closed loop, metres driven; open loop, the A* path from start to goal on the final map.
Time to goal: simulated seconds to within ${d.planner.goalToleranceM} m of the goal. Collisions: the vehicle's footprint met a solid obstacle (rock, fallen log, tree trunk at least ${d.vehicle.clearance} m high) — the closed loop stops there.
False obstacles: lethal cells whose ground truth is only grass or shrubs lower than ${g.hMax} m. Missed obstacles: solid obstacles within ${d.planner.relevanceM} m of the track from which no return reached the map, of the obstacles near it.
Replans: times the planned path changed after the first plan.</p>
</body></html>
`;
}

/** For each profile swept over several mounts: time to goal (or the outcome) by height (rows) and pitch (columns). */
function sweepTables(results: readonly StudySensorResult[]): string {
  const byProfile = new Map<string, StudySensorResult[]>();
  for (const r of results) byProfile.set(r.profile, [...(byProfile.get(r.profile) ?? []), r]);
  const out: string[] = [];
  for (const [profile, rs] of byProfile) {
    if (rs.length < 2) continue;
    const heights = [...new Set(rs.map((r) => r.mount.height))].sort((a, b) => a - b);
    const pitches = [...new Set(rs.map((r) => r.mount.pitchDeg))].sort((a, b) => a - b);
    const cell = (h: number, p: number) => {
      const r = rs.find((x) => x.mount.height === h && x.mount.pitchDeg === p);
      if (!r) return '';
      return r.timeToGoal !== null ? `${num(r.timeToGoal)} s` : outcomeText(r.outcome);
    };
    out.push(`<h2>${esc(profile)}: time to goal by mount height (rows, m) and pitch (columns, °)</h2>
<table><tr><th></th>${pitches.map((p) => `<th>${esc(p)}</th>`).join('')}</tr>
${heights.map((h) => `<tr><th>${esc(h)}</th>${pitches.map((p) => `<td>${esc(cell(h, p))}</td>`).join('')}</tr>`).join('\n')}</table>`);
  }
  return out.join('\n');
}
