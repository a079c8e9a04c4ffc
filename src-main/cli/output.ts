/** What a command produces: the --json object, and the human text printed otherwise. */
export interface CommandOutput {
  json: unknown;
  text: string;
}
