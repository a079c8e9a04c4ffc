/** The error for a file a task cannot open: its path and the reason in words. */
export function cannotRead(path: string, e: unknown): Error {
  const code = (e as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : String((e as Error).message);
  return new Error(`${path}: cannot read: ${why}`, { cause: e });
}
