/**
 * Choosing up to MAX_PROFILES sensor profiles in one select (the New study form, the live drive):
 * the profile groups with the rest of the list greyed out once the limit is reached, and each
 * chosen profile shown as its id alone — the full labels would fill the box.
 */
import { h } from 'vue';
import { NTag, type SelectRenderTag } from 'naive-ui';
import type { ProfileSummary } from '../../../src-main/api/contract';
import { profileOptions } from '../scenes/scene-format';

export function limitedProfileChoices(list: readonly ProfileSummary[], selected: readonly string[], max: number) {
  return profileOptions(list).map((g) => ({
    ...g,
    children: g.children.map((c) => ({ ...c, disabled: selected.length >= max && !selected.includes(c.value) })),
  }));
}

export const profileIdTag: SelectRenderTag = ({ option, handleClose }) =>
  h(NTag, { size: 'small', closable: true, onClose: (e: MouseEvent) => (e.stopPropagation(), handleClose()), class: 'mono' }, () => String(option.value));
