/** The Label page's test hook (views/LabelView.vue). */
export {};

declare global {
  interface Window {
    __thicketLabels?: { ready: boolean; points: number; shown: number; selected: number; dirty: boolean; saving: boolean; version: number | null };
  }
}
