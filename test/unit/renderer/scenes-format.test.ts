import { describe, expect, it } from 'vitest';
import { requestSchemas } from '../../../src-main/api/contract';
import { SCENE_KIND_SPECS, countWithShare, defaultParams, defaultSimulateForm, formatExtent, formatRunEstimate, formatShare, formatTrajectory, generateRequest, hasTrail, humanizeKey, profileOptions, BUILTIN_PROFILE_IDS, runProfileLabel, sceneBounds, sceneFacts, sceneHeadline, simulateRequest, suggestedStart, withGroundTruthNames, type SimulateForm } from '../../../src-renderer/components/scenes/scene-format';
import { BUILTIN_IDS } from '../../../src-common/builtin-profiles';

describe('scene generation form', () => {
  it('has the contract defaults for every kind', () => {
    expect(defaultParams('offroad')).toEqual({ sizeM: 120, targetTriangles: 1_500_000 });
    expect(defaultParams('hybrid-strip')).toEqual({ lengthM: 200, widthM: 60, mesh: 0 });
    expect(defaultParams('cylinder-stand')).toEqual({ lambda: 50, diameter: 0.01, distance: 20, width: 10, depth: 5 });
    expect(defaultParams('rod-bench')).toEqual({ backgroundOffset: 0.6 });
    for (const spec of Object.values(SCENE_KIND_SPECS)) for (const p of spec.params) expect(p.default).toBeGreaterThanOrEqual(p.min);
  });

  it('sends only the kind’s parameters, defaults for cleared fields, and a trimmed name', () => {
    const req = generateRequest('offroad', 7, '  small  ', { sizeM: 40, targetTriangles: null, lengthM: 99 });
    expect(req).toEqual({ kind: 'offroad', seed: 7, name: 'small', params: { sizeM: 40, targetTriangles: 1_500_000 } });
    expect(generateRequest('rod-bench', 1.7, ' ', {})).toEqual({ kind: 'rod-bench', seed: 1, params: { backgroundOffset: 0.6 } });
    // A switch goes out as 1 when on and not at all when off (the generator wants positive values).
    expect(generateRequest('hybrid-strip', 1, '', { lengthM: 40, mesh: 0 }).params).toEqual({ lengthM: 40, widthM: 60 });
    expect(generateRequest('hybrid-strip', 1, '', { lengthM: 40, mesh: 1 }).params).toEqual({ lengthM: 40, widthM: 60, mesh: 1 });
    expect(requestSchemas['scenes.generate'].safeParse(req).success).toBe(true);
  });
});

describe('simulate form', () => {
  const base: SimulateForm = { ...defaultSimulateForm(), sceneId: 3 };

  it('builds a static request the contract accepts', () => {
    const c = simulateRequest({ ...base, seconds: 0.2, position: [1, 2, 0], headingDeg: 90 });
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    expect(c.value).toEqual({
      sceneId: 3,
      profileId: 'vlp16',
      mode: 'hybrid',
      seed: 1,
      trajectory: { kind: 'static', seconds: 0.2, position: [1, 2, 0], headingDeg: 90 },
      rangeSampler: 'along-ray',
    });
    expect(requestSchemas['simulate.start'].safeParse(c.value).success).toBe(true);
  });

  it('builds straight and log trajectories; the range sampler only for element modes', () => {
    const s = simulateRequest({ ...base, mode: 'mesh', trajectoryKind: 'straight', speed: 8, name: ' drive ' });
    expect(s.ok && s.value).toMatchObject({ name: 'drive', trajectory: { kind: 'straight', seconds: 1, start: [0, 0, 0], headingDeg: 0, speed: 8 } });
    expect(s.ok && 'rangeSampler' in s.value).toBe(false);
    const t = simulateRequest({ ...base, trajectoryKind: 'trail', speed: 3 });
    expect(t.ok && t.value.trajectory).toEqual({ kind: 'trail', speed: 3, seconds: 1 });
    const t2 = simulateRequest({ ...base, trajectoryKind: 'trail', seconds: null });
    expect(t2.ok && t2.value.trajectory).toEqual({ kind: 'trail', speed: 2.4 });
    const l = simulateRequest({ ...base, trajectoryKind: 'log', logId: 4 });
    expect(l.ok && l.value.trajectory).toEqual({ kind: 'log', logId: 4 });
    const l2 = simulateRequest({ ...base, trajectoryKind: 'log', logId: 4, logSeconds: 2 });
    expect(l2.ok && l2.value.trajectory).toEqual({ kind: 'log', logId: 4, seconds: 2 });
    for (const c of [s, t, t2, l, l2]) expect(c.ok && requestSchemas['simulate.start'].safeParse(c.value).success).toBe(true);
  });

  it('says what is missing', () => {
    const reason = (f: Partial<typeof base>) => {
      const c = simulateRequest({ ...base, ...f });
      return c.ok ? '' : c.reason;
    };
    expect(reason({ sceneId: null })).toBe('Choose a scene');
    expect(reason({ profileId: null })).toBe('Choose a sensor profile');
    expect(reason({ seconds: 0 })).toBe('Seconds must be positive');
    expect(reason({ position: [0, null, 0] })).toBe('Enter x, y and z');
    expect(reason({ trajectoryKind: 'straight', speed: 100 })).toBe('Speed is 0 to 60 m/s');
    expect(reason({ trajectoryKind: 'log' })).toBe('Choose a drive log');
  });

  it('names a run of a log\'s own rays by its log', () => {
    expect(formatTrajectory({ kind: 'log', logId: 4 }, (id) => (id === 4 ? 'vel000104.bin' : undefined), { raysFromLogId: 4 })).toBe('The rays of drive log “vel000104.bin”');
    expect(formatTrajectory({ kind: 'log', logId: 4 }, undefined, {})).toBe('Drive log #4');
  });

  it("fires a log's own rays (no trajectory, the log's profile unless one is chosen) and places the sensor", () => {
    const r = simulateRequest({ ...base, trajectoryKind: 'rays', logId: 4, profileId: null });
    expect(r.ok && r.value).toEqual({ sceneId: 3, mode: 'hybrid', seed: 1, raysFromLogId: 4, rangeSampler: 'along-ray' });
    expect(simulateRequest({ ...base, trajectoryKind: 'rays', logId: null }).ok).toBe(false);
    const m = simulateRequest({ ...base, placement: 'mount', mountText: '0.5, 0, 1.8, 0, 0, 90' });
    expect(m.ok && m.value.mount).toEqual([0.5, 0, 1.8, 0, 0, 90]);
    const bad = simulateRequest({ ...base, placement: 'mount', mountText: '0,0,1.8' });
    expect(!bad.ok && bad.reason).toBe('Mount: expected 6 numbers x,y,z,roll,pitch,yaw (metres, degrees), got 3');
    const e = simulateRequest({ ...base, placement: 'extrinsic', extrinsic: { name: 'e.txt', text: '1 0 0 0\n0 1 0 0\n0 0 1 1.5\n' }, extrinsicInverse: true });
    expect(e.ok && e.value).toMatchObject({ extrinsic: { name: 'e.txt' }, extrinsicInverse: true });
    const sheared = simulateRequest({ ...base, placement: 'extrinsic', extrinsic: { name: 's.txt', text: '1 0 0 0\n0.1 1 0 0\n0 0 1 0\n' } });
    expect(!sheared.ok && sheared.reason).toMatch(/^s\.txt, line 2: not a rotation/);
    expect(simulateRequest({ ...base, placement: 'extrinsic' }).ok).toBe(false);
    for (const c of [r, m, e]) expect(c.ok && requestSchemas['simulate.start'].safeParse(c.value).success).toBe(true);
  });
});

describe('profile picker', () => {
  const vlp = { id: 'vlp16', name: 'Velodyne VLP-16', builtin: true, lasers: 16, rotationHz: 10, raysPerSecond: 288_000 };
  const mine = { id: 'vlp16-copy', name: 'My VLP', builtin: false, lasers: 16, rotationHz: 20, raysPerSecond: 288_000 };

  it('offers the built-in ids until the list loads, then groups built-in and project profiles', () => {
    expect(profileOptions([])[0]!.children.map((o) => o.value)).toEqual(['lms291-180-1', 'vlp16', 'hdl32e', 'hdl64e']);
    // Each is a real built-in id (the host would refuse anything else).
    for (const id of BUILTIN_PROFILE_IDS) expect(BUILTIN_IDS).toContain(id);
    const groups = profileOptions([mine, vlp]);
    expect(groups.map((g) => g.label)).toEqual(['Built-in', 'This project']);
    expect(groups[0]!.children).toEqual([{ value: 'vlp16', label: 'vlp16 · Velodyne VLP-16 · 16 lasers · 10 Hz' }]);
    expect(groups[1]!.children[0]!.value).toBe('vlp16-copy');
  });

  it('estimates what a run fires', () => {
    expect(formatRunEstimate(0.2, vlp)).toBe('≈ 2 revolutions · 58 k rays');
    expect(formatRunEstimate(0.1, vlp)).toBe('≈ 1 revolution · 29 k rays');
    expect(formatRunEstimate(null, vlp)).toBe('');
    expect(formatRunEstimate(1, undefined)).toBe('');
  });
});

describe('run display', () => {
  it('summarises trajectories', () => {
    expect(formatTrajectory({ kind: 'static', seconds: 0.2, position: [0, 0, 0], headingDeg: 0 })).toBe('Static 200 ms at (0, 0, 0), heading 0°');
    expect(formatTrajectory({ kind: 'straight', seconds: 2, start: [1.234, -5, 0], headingDeg: 90, speed: 5 })).toBe(
      'Straight 5 m/s for 2.00 s from (1.23, -5, 0), heading 90°',
    );
    expect(formatTrajectory({ kind: 'log', logId: 3 }, (id) => (id === 3 ? 'forest.bin' : undefined))).toBe('Drive log “forest.bin”');
    expect(formatTrajectory({ kind: 'log', logId: 9, seconds: 1.5 })).toBe('Drive log #9, first 1.50 s');
    expect(formatTrajectory({ kind: 'trail', speed: 2.4, seconds: 3 })).toBe("Along the scene's trail at 2.4 m/s for 3.00 s");
    expect(formatTrajectory(null)).toBe('—');
  });

  it('formats hit shares', () => {
    expect(formatShare(873, 127)).toBe('87.3 %');
    expect(formatShare(0, 0)).toBe('');
    expect(countWithShare(1500, 500)).toBe('1,500 (75.0 %)');
    expect(countWithShare(0, 0)).toBe('0');
  });

  it('labels the profile by its stored name', () => {
    expect(runProfileLabel({ profileId: 'vlp16', params: { profile: { name: 'Velodyne VLP-16' } } })).toBe('Velodyne VLP-16 (vlp16)');
    expect(runProfileLabel({ profileId: 'vlp16', params: {} })).toBe('vlp16');
  });
});

describe('scene meta display', () => {
  const meta = {
    kind: 'offroad',
    seed: 4,
    params: { sizeM: 40, targetTriangles: 200000 },
    primitives: 12,
    instances: 340,
    uniqueTriangles: 50_000,
    instancedTriangles: 198_765,
    objects: 120,
    buildMs: 850,
    memoryBytes: 3 * 1024 ** 2,
    bounds: { min: [-20, -20, -1], max: [20, 20, 11.5] },
  };

  it('humanizes keys', () => {
    expect(humanizeKey('instancedTriangles')).toBe('instanced triangles');
    expect(humanizeKey('triangle_count')).toBe('triangle count');
    expect(humanizeKey('BVHNodes')).toBe('bvh nodes');
  });

  it('picks headline counts, placed before unique, one per noun', () => {
    expect(sceneHeadline(meta)).toBe('199 k triangles · 340 instances · 120 objects');
    expect(sceneHeadline({ triangleCount: 1_500_000, elements: 3000 })).toBe('1.5 M triangles · 3 k elements');
    expect(sceneHeadline({ kind: 'rod-bench', seed: 1 })).toBe('');
    expect(sceneHeadline({ triangles: 5, ellipsoids: 0 })).toBe('5 triangles');
    // The off-road generator's shape: part counts nested under `counts`, totals at the top.
    expect(sceneHeadline({ counts: { terrainTriangles: 9000, trees: 12, shrubs: 40 }, triangles: 200_334, uniqueTriangles: 80_080, ellipsoids: 0, instances: 248 })).toBe(
      '200 k triangles · 12 trees · 248 instances',
    );
    expect(sceneHeadline({ stems: 2500, triangles: 160_000, instances: 2500 })).toBe('160 k triangles · 2.5 k stems · 2.5 k instances');
  });

  it('reads bounds as {min,max} or six numbers', () => {
    expect(formatExtent(meta.bounds)).toBe('40 × 40 × 12.5 m');
    expect(sceneBounds([0, 0, 0, 200, 8, 3])).toEqual({ min: [0, 0, 0], max: [200, 8, 3] });
    expect(sceneBounds({ 0: 0, 1: 0, 2: 0, 3: 1, 4: 1, 5: 1 })).toEqual({ min: [0, 0, 0], max: [1, 1, 1] });
    expect(formatExtent(undefined)).toBe('—');
    expect(formatExtent({ min: [0, 0], max: [1, 1] })).toBe('—');
  });

  it('lists every fact generically', () => {
    const facts = Object.fromEntries(sceneFacts(meta));
    expect(facts).toMatchObject({
      Kind: 'Off-road terrain',
      Seed: '4',
      Size: '40.00 m',
      'Target triangles': '200,000',
      Primitives: '12',
      'Instanced triangles': '198,765',
      'Build time': '850 ms',
      Memory: '3.0 MiB',
      Extent: '40 × 40 × 12.5 m',
    });
    expect(Object.fromEntries(sceneFacts({ kind: 'cylinder-stand', params: { lambda: 50, diameter: 0.01 } }))).toMatchObject({
      'Density λ': '50 stems/m²',
      Diameter: '0.010 m',
    });
  });
});

describe('vehicle start suggestion', () => {
  const yaw = (deg: number) => [0, 0, Math.sin((deg * Math.PI) / 360), Math.cos((deg * Math.PI) / 360)];

  it('puts the vehicle on the ground at the trail start, heading along it', () => {
    const trail = [[2, 20.5, 3.8, ...yaw(10)], [5, 21, 3.9, ...yaw(12)]];
    expect(suggestedStart({ kind: 'offroad', trail }, 2)).toMatchObject({ position: [2, 20.5, 2], headingDeg: 10 });
    expect(suggestedStart({ kind: 'hybrid-strip', trailStart: [0, -1.25, 1.8, ...yaw(-5)] }, null)).toMatchObject({ position: [0, -1.25, 0], headingDeg: -5 });
    expect(hasTrail({ trail })).toBe(true);
    expect(hasTrail({ kind: 'rod-bench' })).toBe(false);
  });

  it('puts a fixture’s sensor at the origin once the mount height is known', () => {
    expect(suggestedStart({ kind: 'rod-bench' }, 2)).toMatchObject({ position: [0, 0, -2], headingDeg: 0 });
    expect(suggestedStart({ kind: 'cylinder-stand' }, null)).toBeNull();
    expect(suggestedStart({ kind: 'offroad' }, 2)).toBeNull();
  });
});

describe('ground-truth classes', () => {
  it('names the entries of a class legend only', () => {
    const legend = withGroundTruthNames({ kind: 'classes', mode: 'class', label: 'Class', entries: [{ id: 7, name: 'class 7', color: '#fff', count: 3 }, { id: 200, name: 'class 200', color: '#000', count: 1 }] });
    expect(legend.kind === 'classes' && legend.entries.map((e) => e.name)).toEqual(['small tree', 'class 200']);
    const scalar = { kind: 'scalar', mode: 'height', label: 'Height (z)', unit: 'm', map: 'turbo', gradient: '', range: { min: 0, max: 1 } } as const;
    expect(withGroundTruthNames(scalar)).toBe(scalar);
  });
});
