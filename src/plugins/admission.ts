/** The admission of a request no limit applies to (the Admission type is src/core's). */
import type { Admission } from '../core/admission.js';

export type { Admission } from '../core/admission.js';

/** The admission of a request no limit applies to. */
export const noLimits: Admission = { headers: {}, holdsSlots: false, recordTokens: () => {}, release: () => {} };
