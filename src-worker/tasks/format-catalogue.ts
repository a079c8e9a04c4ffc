/**
 * The format registry's plain facts (ids, labels, extensions, what an import needs), for the
 * host to serve as `formats.list`: the host and the renderer know formats only through this.
 */
import type { FormatCatalogue } from '../../src-common/format-info';
import { formatCatalogue } from '../formats/registry';

export function formatCatalogueTask(): FormatCatalogue {
  return formatCatalogue();
}
