/** Non-fatal notes about a request: unsupported parameters, trimmed prompts, defaults applied. */
export type Warning = {
  /** Stable machine-readable code, e.g. `unsupported-parameter`. */
  code: string;
  message: string;
};
