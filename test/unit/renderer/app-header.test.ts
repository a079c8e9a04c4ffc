// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import type { ProjectInfo } from '../../../src-main/api/contract';
import { fake } from './fake-api';

vi.mock('../../../src-renderer/api', () => import('./fake-api'));

const { default: AppHeader } = await import('../../../src-renderer/components/AppHeader.vue');
const { useProjectStore } = await import('../../../src-renderer/stores/project');

const info = (over: Partial<ProjectInfo> = {}): ProjectInfo =>
  ({ path: '/p/site.thicket', name: 'site', schemaVersion: 7, counts: {}, ...over }) as unknown as ProjectInfo;

describe('AppHeader', () => {
  let wrapper: VueWrapper | null = null;
  beforeEach(() => {
    setActivePinia(createPinia());
    fake.reset();
  });
  afterEach(() => {
    wrapper?.unmount();
    wrapper = null;
  });

  it('marks a damaged project read-only, and only a damaged one', async () => {
    const project = useProjectStore();
    project.current = info();
    wrapper = mount(AppHeader);
    await flushPromises();
    expect(wrapper.find('[data-testid="project-name"]').text()).toBe('site');
    expect(wrapper.find('[data-testid="project-damaged"]').exists()).toBe(false);
    project.current = info({ damaged: 'Tree 11 page 11: invalid page type. Restore it from a backup…' });
    await flushPromises();
    expect(wrapper.find('[data-testid="project-damaged"]').text()).toBe('damaged · read-only');
  });
});
