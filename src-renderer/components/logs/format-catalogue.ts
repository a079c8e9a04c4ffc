/**
 * The formats the host can import and export (labels, extensions, folder or file), asked once
 * per page load: the list is the worker's format registry, so a new format appears in the
 * import and export menus without an edit here.
 */
import { shallowRef, type ShallowRef } from 'vue';
import type { FormatCatalogue } from '../../../src-common/format-info';
import { api } from '../../api';

const catalogue = shallowRef<FormatCatalogue | null>(null);
let asked: Promise<unknown> | null = null;

export function useFormatCatalogue(): ShallowRef<FormatCatalogue | null> {
  asked ??= api.call('formats.list', {}).then(
    (c) => (catalogue.value = c),
    () => (asked = null), // ask again next time (e.g. the host was reconnecting)
  );
  return catalogue;
}
