/**
 * Where an export may write (docs/drive-logs.md, "Export"). Whoever holds the API token names the
 * path, so: a relative path is taken in the project's folder, never the host process's working
 * folder; an existing file is replaced only when the request says `force` (the CLI's --force, the
 * app after asking); and nothing but a regular file (or a KITTI folder) is ever written over.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ApiError, type ParsedRequest } from '../api/contract';
import type { ServiceContext } from './service-context';
import { formatCatalogue } from './format-catalogue';

export async function exportTarget(ctx: ServiceContext, req: ParsedRequest<'export.start'>): Promise<string> {
  const session = ctx.requireSession();
  const path = isAbsolute(req.path) ? req.path : resolve(dirname(session.path), req.path);
  if (!existsSync(path)) return path;
  const folder = (await formatCatalogue(ctx.pools)).export.find((f) => f.id === req.format)!.folder;
  const st = lstatSync(path);
  if (st.isDirectory()) {
    // A file format onto a folder is refused where the export starts; a KITTI folder is replaced only when forced.
    if (folder && !req.force && readdirSync(path).length > 0) throw exists(path, 'the folder is not empty');
    return path;
  }
  if (!st.isFile()) throw new ApiError('bad_input', `${path}: not a regular file (a link, a device or a pipe): choose another name`);
  if (folder) throw new ApiError('bad_input', `${path}: a file; a ${req.format.toUpperCase()} export is a folder: choose another name`);
  if (!req.force) throw exists(path, 'a file of that name exists');
  return path;
}

function exists(path: string, what: string): ApiError {
  return new ApiError('conflict', `${path}: ${what}; export again with force (thicket export --force) to replace it`);
}
