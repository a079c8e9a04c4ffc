/**
 * What a cloud page (CloudPage.vue) needs to know about the kind of entity it shows — a drive log
 * or a simulation run: how to fetch it, what to call it, where "back" goes and how to delete it.
 * LogView and RunView each build one and hand it to the page with their facts card.
 */
import type { Legend } from '../../viewport/cloud-colors';
import type { CloudSourceOptions } from '../../viewport/use-cloud-source';

/** What every shown entity carries. */
export interface CloudEntity {
  name: string;
  points: number;
}

export interface CloudPageSource<I extends CloudEntity> extends Omit<CloudSourceOptions<I>, 'id'> {
  /** Playback, export and the test ids (`${kind}-view`, `${kind}-export`, `${kind}-delete`). */
  kind: 'log' | 'run';
  /** The title before the metadata arrives: `${noun} ${id}`. */
  noun: string;
  back: { to: string; label: string };
  /** Small tags after the title (format, profile, mode). */
  tags: (info: I) => { label: string; type?: 'info' }[];
  deleteLabel: string;
  /** The confirmation's question. */
  deleteQuestion: (info: I) => string;
  missingText: string;
  /** Deletes the entity; true when it is gone. */
  remove: (id: number) => Promise<boolean>;
  /** Renames legend entries (runs name their ground-truth classes). */
  legend?: (legend: Legend) => Legend;
}
