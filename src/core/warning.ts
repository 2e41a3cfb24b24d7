/** Non-fatal notes about a request: unsupported parameters, trimmed prompts, defaults applied. */
export type Warning = {
  /** Stable machine-readable code, e.g. `unsupported-parameter`. */
  code: string;
  message: string;
};

/**
 * A strict response format or tool whose guarantee the upstream cannot give in full: the gateway checks a
 * reply's format instead; a tool sent without strict, or with bounds its grammar cannot hold, says why.
 */
export const strictNotGuaranteedCode = 'strict-schema-not-guaranteed';
