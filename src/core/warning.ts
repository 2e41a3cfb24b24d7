/** Non-fatal notes about a request: unsupported parameters, trimmed prompts, defaults applied. */
export type Warning = {
  /** Stable machine-readable code, e.g. `unsupported-parameter`. */
  code: string;
  message: string;
};

/** A strict response format whose guarantee the upstream cannot give in full: the gateway checks the reply instead. */
export const strictNotGuaranteedCode = 'strict-schema-not-guaranteed';
