/** Display formatting shared by tables and panels (pure; unit-tested). */

/** 1234567 → "1,234,567" (tables of counts read best with all digits, grouped). */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—';
}

/** 3_400_000 → "3.4 M", 25_000 → "25 k": for budgets and compact labels. */
export function formatCompact(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const a = Math.abs(n);
  if (a >= 1e6) return `${+(n / 1e6).toFixed(a >= 1e7 ? 1 : 2)} M`;
  if (a >= 1e3) return `${+(n / 1e3).toFixed(a >= 1e4 ? 0 : 1)} k`;
  return String(Math.round(n));
}

/** Seconds → "850 ms", "12.3 s", "4 min 05 s", "1 h 02 min". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const s = Math.round(seconds);
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** A time on a log's clock: "12.34 s", "123.4 s" from 100 s. */
export function formatSeconds(s: number): string {
  return `${s.toFixed(s < 100 ? 2 : 1)} s`;
}

/** Elapsed wall time between two ISO instants (or until `now`), "m:ss" / "h:mm:ss". */
export function formatElapsed(startIso: string | null, endIso: string | null, now: number): string {
  if (!startIso) return '—';
  const start = Date.parse(startIso);
  const end = endIso ? Date.parse(endIso) : now;
  if (!Number.isFinite(start) || !Number.isFinite(end)) return '—';
  const total = Math.max(0, Math.floor((end - start) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** ISO instant → local "YYYY-MM-DD HH:MM" (sortable, unambiguous across locales). */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** Metres with a sensible precision for a span of `span` metres. */
export function formatMetres(v: number, span = Math.abs(v)): string {
  if (!Number.isFinite(v)) return '—';
  const digits = span >= 100 ? 1 : span >= 1 ? 2 : 3;
  return `${v.toFixed(digits)} m`;
}

/** 1 → "1 worker", 3 → "3 workers" (counts grouped as formatCount; `many` for irregular nouns). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** A yes/no fact in words. */
export function formatYesNo(v: boolean): string {
  return v ? 'Yes' : 'No';
}

/** The API's error codes (src-main/api/contract.ts ERROR_CODES) in words. */
const ERROR_WORDS: Record<string, string> = {
  invalid_request: 'The request was not valid',
  unknown_method: 'Not supported by this host',
  no_project: 'No project is open',
  not_found: 'Not found',
  bad_input: 'Invalid input',
  conflict: 'Conflict',
  cancelled: 'Cancelled',
  unauthorized: 'Not authorised',
  internal: 'Internal error',
  client: 'Error in the app',
};
/**
 * An API error for a person: the host's message without the method prefix it carries
 * ("project.create: path: …" → "path: …"), and its code in words.
 */
export function describeApiError(code: string, message: string): { message: string; kind: string } {
  const text = message.replace(/^[a-z][A-Za-z0-9]*\.[A-Za-z0-9.]+:\s*/, '').replace(/^request:\s*/, '');
  return { message: text.replace(/^./, (c) => c.toUpperCase()), kind: ERROR_WORDS[code] ?? code.replace(/_/g, ' ') };
}
