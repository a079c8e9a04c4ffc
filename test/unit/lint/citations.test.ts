/**
 * Comments and messages cite only what a clone of the repository has: `docs/methods.md §N`,
 * the sections of `docs/design.md` by name, or the papers by title, authors and year. Documents
 * that live outside the repository (a methods digest, an architecture page, the paper files,
 * an issue tracker's numbers) must not be cited: a reader of a fresh clone could not follow them.
 * Reading recordings under `../shared/data/` at run time is fine — data paths are not citations.
 *
 * The patterns are assembled from pieces so that this file does not match them itself.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../../helpers/shared-data';

const FOLDERS = ['src-common', 'src-main', 'src-worker', 'src-renderer', 'test', 'scripts', 'bin', 'resources'];
const TEXT = /\.(ts|mts|cts|js|mjs|cjs|vue|json|c|h|html|css|ya?ml)$/;
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', 'test-results', '.vitest-tmp']);

const SECTION = '\u00a7';
// The names of the outside documents, split so that neither this file nor a grep for them
// finds them here.
const DIGEST = ['METH', 'ODS'].join('');
const ARCH = ['ARCHI', 'TECTURE'].join('');
const FORBIDDEN: { name: string; pattern: RegExp }[] = [
  { name: 'the methods digest', pattern: new RegExp(`${DIGEST}(\\.md)?\\s*${SECTION}`) },
  { name: 'the architecture page', pattern: new RegExp(`${ARCH}\\.md`) },
  { name: 'a shared document path', pattern: new RegExp(`shared/(${DIGEST}|${ARCH}|seeds)`) },
  { name: 'an issue number', pattern: new RegExp(['\\bissues?', '\\s*#?\\d+'].join(''), 'i') },
];

/** Every `pattern` hit in `text`, as "line: excerpt". */
function citations(text: string): string[] {
  const hits: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const { name, pattern } of FORBIDDEN) {
      if (pattern.test(line)) hits.push(`${i + 1}: ${name}: ${line.trim().slice(0, 120)}`);
    }
  });
  return hits;
}

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP_DIRS.has(entry.name) || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && TEXT.test(entry.name)) files.push(path);
    }
  };
  for (const folder of FOLDERS) {
    try {
      if (statSync(join(REPO_ROOT, folder)).isDirectory()) walk(join(REPO_ROOT, folder));
    } catch {
      // a folder this checkout does not have
    }
  }
  // Configuration at the root (eslint.config.js, vitest.config.ts, tsconfig*.json, package.json, …).
  for (const entry of readdirSync(REPO_ROOT, { withFileTypes: true })) {
    if (entry.isFile() && TEXT.test(entry.name) && entry.name !== 'package-lock.json') files.push(join(REPO_ROOT, entry.name));
  }
  return files;
}

describe('citations point into the repository', () => {
  it('the patterns catch what they should and leave data paths alone', () => {
    const methods = `${DIGEST} ${SECTION}6`;
    const arch = `${ARCH}.md`;
    expect(citations(`// ${methods}: packet error`)).toHaveLength(1);
    expect(citations(`// the import table of ${arch}`)).toHaveLength(1);
    expect(citations(`// see ../${['shared', 'seeds'].join('/')}/004.txt`)).toHaveLength(1);
    expect(citations(`// ${['Issue', '5'].join(' ')} item 3`)).toHaveLength(1);
    expect(citations(`// (${['issue', '3,'].join(' ')} item 7)`)).toHaveLength(1);
    expect(citations('// docs/methods.md §6; docs/design.md, "Jobs and workers"')).toEqual([]);
    expect(citations("const file = dataFile('overlapnet_kitti/000000.bin'); // ../shared/data/")).toEqual([]);
    expect(citations('// issues a warning when the file is short')).toEqual([]);
  });

  it('no source, test, script or config file cites a document outside the repository', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const offenders: string[] = [];
    for (const file of files) {
      for (const hit of citations(readFileSync(file, 'utf8'))) offenders.push(`${relative(REPO_ROOT, file)}:${hit}`);
    }
    expect(offenders, 'cite docs/methods.md §N, a docs/design.md section or the paper instead').toEqual([]);
  });
});
