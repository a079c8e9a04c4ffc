import { describe, expect, it } from 'vitest';
import { requestSchemas } from '../../../src-main/api/contract';
import {
  SCENE_KIND_SPECS,
  countWithShare,
  defaultParams,
  defaultSimulateForm,
  formatExtent,
  formatShare,
  formatTrajectory,
  generateRequest,
  humanizeKey,
  runProfileLabel,
  sceneBounds,
  sceneFacts,
  sceneHeadline,
  simulateRequest,
} from '../../../src-renderer/components/scenes/scene-format';

describe('scene generation form', () => {
  it('has the contract defaults for every kind', () => {
    expect(defaultParams('offroad')).toEqual({ sizeM: 120, targetTriangles: 1_500_000 });
    expect(defaultParams('hybrid-strip')).toEqual({ lengthM: 200 });
    expect(defaultParams('cylinder-stand')).toEqual({ lambda: 50, diameter: 0.01, distance: 20 });
    expect(defaultParams('rod-bench')).toEqual({ backgroundOffset: 0.6 });
    for (const spec of Object.values(SCENE_KIND_SPECS)) for (const p of spec.params) expect(p.default).toBeGreaterThanOrEqual(p.min);
  });

  it('sends only the kind’s parameters, defaults for cleared fields, and a trimmed name', () => {
    const req = generateRequest('offroad', 7, '  small  ', { sizeM: 40, targetTriangles: null, lengthM: 99 });
    expect(req).toEqual({ kind: 'offroad', seed: 7, name: 'small', params: { sizeM: 40, targetTriangles: 1_500_000 } });
    expect(generateRequest('rod-bench', 1.7, ' ', {})).toEqual({ kind: 'rod-bench', seed: 1, params: { backgroundOffset: 0.6 } });
    expect(requestSchemas['scenes.generate'].safeParse(req).success).toBe(true);
  });
});

describe('simulate form', () => {
  const base = { ...defaultSimulateForm(), sceneId: 3 };

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
    const l = simulateRequest({ ...base, trajectoryKind: 'log', logId: 4 });
    expect(l.ok && l.value.trajectory).toEqual({ kind: 'log', logId: 4 });
    const l2 = simulateRequest({ ...base, trajectoryKind: 'log', logId: 4, logSeconds: 2 });
    expect(l2.ok && l2.value.trajectory).toEqual({ kind: 'log', logId: 4, seconds: 2 });
    for (const c of [s, l, l2]) expect(c.ok && requestSchemas['simulate.start'].safeParse(c.value).success).toBe(true);
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
});

describe('run display', () => {
  it('summarises trajectories', () => {
    expect(formatTrajectory({ kind: 'static', seconds: 0.2, position: [0, 0, 0], headingDeg: 0 })).toBe('Static 200 ms at (0, 0, 0), heading 0°');
    expect(formatTrajectory({ kind: 'straight', seconds: 2, start: [1.234, -5, 0], headingDeg: 90, speed: 5 })).toBe(
      'Straight 5 m/s for 2.00 s from (1.23, -5, 0), heading 90°',
    );
    expect(formatTrajectory({ kind: 'log', logId: 3 }, (id) => (id === 3 ? 'forest.bin' : undefined))).toBe('Drive log “forest.bin”');
    expect(formatTrajectory({ kind: 'log', logId: 9, seconds: 1.5 })).toBe('Drive log #9, first 1.50 s');
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
      'Density λ': '50 1/m²',
      Diameter: '0.010 m',
    });
  });
});
