import { describe, expect, it } from 'vitest';
import { defaultFitForm, fitRequest } from '../../../src-renderer/components/fit/fit-form';

describe('the Fit model form', () => {
  it('sends only the parameters changed from the defaults, with the seed, name and tuning', () => {
    const f = defaultFitForm();
    f.params = { clustersPerPoint: 0.05, cellSize: 0.1 }; // cellSize 0.1 is the default
    f.name = '  Mine ';
    f.tune = true;
    expect(fitRequest(3, f)).toEqual({ ok: true, value: { logId: 3, seed: 1, params: { clustersPerPoint: 0.05 }, name: 'Mine', tune: { seconds: 10, evaluations: 30 } } });
    expect(fitRequest(3, defaultFitForm())).toEqual({ ok: true, value: { logId: 3, seed: 1, params: {} } });
  });

  it('says what is wrong: no log, a value out of range, a bad seed or tuning budget', () => {
    expect(fitRequest(null, defaultFitForm())).toEqual({ ok: false, reason: 'Choose a drive log.' });
    const f = defaultFitForm();
    f.params = { mahalanobisThreshold: 500 };
    const r = fitRequest(1, f);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toContain('mahalanobisThreshold = 500');
    const g = defaultFitForm();
    g.seed = -1;
    expect(fitRequest(1, g)).toMatchObject({ ok: false, reason: expect.stringContaining('seed') });
    const t = defaultFitForm();
    t.tune = true;
    t.tuneEvaluations = 1;
    expect(fitRequest(1, t)).toMatchObject({ ok: false, reason: expect.stringContaining('at least 2 evaluations') });
  });
});
