/**
 * What the forms' pure request builders share (scene-format, primitive-format, study-form): the
 * checked result — the request to send, or the reason it cannot be sent yet, shown in the drawer's
 * footer — and the number tests they read form fields with.
 */
export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A field holding a usable number (not empty, not NaN). */
export const finite = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** `v` when it is a finite number, else null (metadata read from JSON). */
export const finiteOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
