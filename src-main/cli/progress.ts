import type { JobInfo } from '../api/contract';

/**
 * Human progress on stderr (stdout is reserved for --json output): a redrawn bar on a
 * terminal, one line per 10% otherwise (logs, CI), and nothing with --quiet.
 */
export class ProgressReporter {
  private lastDecile = -1;
  private lastLine = '';
  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly quiet = false,
  ) {}

  job(job: JobInfo): void {
    if (this.quiet) return;
    const pct = Math.round(job.progress * 100);
    const label = `${job.kind} #${job.id}`;
    if (this.stream.isTTY) {
      const width = 30;
      const filled = Math.round(job.progress * width);
      const line = `\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${job.message}`.padEnd(80);
      if (line !== this.lastLine) this.stream.write(line);
      this.lastLine = line;
      if (job.state !== 'queued' && job.state !== 'running') this.stream.write('\n');
      return;
    }
    const decile = Math.floor(pct / 10);
    const final = job.state !== 'queued' && job.state !== 'running';
    if (decile !== this.lastDecile || final) {
      this.lastDecile = decile;
      this.stream.write(`${label}: ${pct}% ${job.message}${final ? ` (${job.state})` : ''}\n`);
    }
  }

  note(text: string): void {
    if (!this.quiet) this.stream.write(`${text}\n`);
  }
}
