/**
 * The one error type every decoder throws for bad input. Callers (import jobs, the UI) can
 * rely on `instanceof DecodeError` meaning "the file is bad", never "the code is broken", and
 * the message always names the file and the place (byte offset or text line).
 */
export class DecodeError extends Error {
  static {
    // On the prototype (not an instance field) so the stack trace's first line says DecodeError too.
    DecodeError.prototype.name = 'DecodeError';
  }
  /** Display name of the file (not a path: decoders only ever see names). */
  readonly file: string;
  /** Byte offset in the file where the problem is, when it is a byte-level problem. */
  declare readonly offset?: number;
  /** 1-based text line, for text formats and text headers. */
  declare readonly line?: number;
  /** The reason alone, without the file name. */
  readonly reason: string;

  constructor(file: string, reason: string, where: { offset?: number; line?: number } = {}) {
    super(`${file}${where.line !== undefined ? `, line ${where.line}` : ''}: ${reason}`);
    this.file = file;
    this.reason = reason;
    if (where.offset !== undefined) this.offset = where.offset;
    if (where.line !== undefined) this.line = where.line;
  }
}
