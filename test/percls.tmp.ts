import { createAppServices } from '../src-main/services/app-services';
const [project, logS, ...runS] = process.argv.slice(2);
const s = await createAppServices({ shell: 'cli', homeDir: '/tmp/pc-home', workers: 1 });
await s.call('project.open', { path: project! });
const store = s.requireSession().store;
const real = [...store.logs.chunks(Number(logS))];
for (const rs of runS) {
  const sim = [...store.runs.chunks(Number(rs))];
  const stat = new Map<number, { th: number; fm: number; fh: number }>();
  // both start at packet 0; pair by global packet index and ray order (same directions)
  const rp: { c: typeof real[0]; p: number }[] = [];
  for (const c of real) for (let p = 0; p < c.packetCount; p++) rp.push({ c, p });
  let k = 0;
  for (const c of sim) for (let p = 0; p < c.packetCount; p++, k++) {
    const r = rp[k]; if (!r) break;
    const a0 = r.c.rayStart[r.p]!, a1 = r.c.rayStart[r.p + 1]!, b0 = c.rayStart[p]!, b1 = c.rayStart[p + 1]!;
    if (a1 - a0 !== b1 - b0) continue;
    for (let i = 0; i < a1 - a0; i++) {
      const hr = Number.isFinite(r.c.rayRange[a0 + i]!), hs = Number.isFinite(c.rayRange[b0 + i]!);
      const cls = hr ? r.c.rayClass[a0 + i]! : hs ? 100 + c.rayClass[b0 + i]! : 255;
      const e = stat.get(cls) ?? { th: 0, fm: 0, fh: 0 }; stat.set(cls, e);
      if (hr && hs) e.th++; else if (hr) e.fm++; else if (hs) e.fh++;
    }
  }
  console.log('run', rs, JSON.stringify([...stat.entries()].sort((a, b) => a[0] - b[0])));
}
await s.close();
