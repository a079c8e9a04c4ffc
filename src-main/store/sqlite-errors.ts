/** Recognising better-sqlite3 errors by their extended result code (e.g. SQLITE_CONSTRAINT_PRIMARYKEY). */
export function sqliteCode(error: unknown): string | null {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('SQLITE_')) {
    return error.code;
  }
  return null;
}

export function isSqliteError(error: unknown, code: string): boolean {
  return sqliteCode(error) === code;
}
