import type { z } from 'zod';

/** "path: a project file name ends in .thicket; budget: Too small…" — field first, then reason. */
export function formatZodError(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? i.path.join('.') : 'request';
      return `${where}: ${i.message}`;
    })
    .join('; ');
}
