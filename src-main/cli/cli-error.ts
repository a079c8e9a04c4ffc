/** An error the CLI reports as one clear line and a non-zero exit code (2 = usage, 1 = failure). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
