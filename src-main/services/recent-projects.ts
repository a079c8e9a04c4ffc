import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { RecentProject } from '../api/contract';

const MAX_RECENT = 20;

/** The recent-projects list, a small JSON file in the user's Thicket folder. */
export class RecentProjects {
  private readonly file: string;

  constructor(homeDir: string) {
    this.file = join(homeDir, 'recent-projects.json');
  }

  list(): RecentProject[] {
    return this.read().map((r) => ({ ...r, exists: existsSync(r.path) }));
  }

  touch(path: string): void {
    const rest = this.read().filter((r) => r.path !== path);
    const entry = { path, name: basename(path).replace(/\.thicket$/, ''), openedAt: new Date().toISOString() };
    this.write([entry, ...rest].slice(0, MAX_RECENT));
  }

  /** Drops a path from the list (a project file that was removed). */
  forget(path: string): void {
    const rest = this.read().filter((r) => r.path !== path);
    this.write(rest);
  }

  private read(): Omit<RecentProject, 'exists'>[] {
    try {
      const data: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
      if (!Array.isArray(data)) return [];
      return data.filter(
        (r): r is Omit<RecentProject, 'exists'> =>
          !!r && typeof r.path === 'string' && typeof r.name === 'string' && typeof r.openedAt === 'string',
      );
    } catch {
      return []; // missing or unreadable: start a fresh list rather than fail the app
    }
  }

  private write(entries: Omit<RecentProject, 'exists'>[]): void {
    mkdirSync(dirname(this.file), { recursive: true });
    // A temp name of this write's own: processes sharing the folder (two CLI commands, the app)
    // never rename each other's file away. The rename replaces atomically: a crash never leaves
    // half a file, and of two writers the last one's list stands.
    const tmp = `${this.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(entries, null, 2));
      renameSync(tmp, this.file);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  }
}
