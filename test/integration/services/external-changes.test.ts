/**
 * Pages notice another process's changes to the open project: a second connection to the file
 * (as the CLI would be) commits, and the host turns it into events for the entities that changed,
 * and for jobs; its own writes do not count as external.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAppServices } from '../../helpers/app-services';
import { openProject } from '../../../src-main/store';

describe('changes made by another process', () => {
  const fx = useAppServices({ workers: 1, prefix: 'thicket-external-', project: 'ext.thicket' });

  it('become events for the changed entities and jobs, within the poll interval', async () => {
    const { services, events } = fx;
    const session = services.session!;
    expect(session.external.poll()).toBe(false);
    // Our own write is not external.
    session.store.annotations.create('ours', null, []);
    expect(session.external.poll()).toBe(false);

    const other = openProject(join(fx.dir, 'ext.thicket'), { create: false });
    try {
      events.length = 0;
      other.annotations.create('from the CLI', null, []);
      // The timer notices within a second or two.
      const deadline = Date.now() + 5000;
      while (!events.some((e) => e.type === 'project' && e.entity === 'annotations') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const entities = events.filter((e) => e.type === 'project').map((e) => (e as { entity: string }).entity);
      expect(entities).toContain('annotations');
      expect(entities).toContain('jobs');
      expect(entities).not.toContain('models');
      expect(session.external.poll()).toBe(false); // nothing new since
    } finally {
      other.close();
    }
  });
});
