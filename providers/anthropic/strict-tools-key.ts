/**
 * The sets of strict tools whose grammar the host gave up on (src/core/grammar-too-complex.ts), remembered by
 * the model and a digest of those tools, on Claude's API, Vertex AI and Bedrock alike. The digest (the tools'
 * JSON, hashed) is made only when a set is being learned or one is remembered: a memory that is nearly always
 * empty costs a request nothing.
 */
import type { ChatRequest } from '../../src/core/index.js';
import { contentDigest } from '../../src/core/content-digest.js';
import { modelsRemembered, type RefusalMemories, type RefusalMemory } from '../../src/core/refusal-memory.js';

/** Whether any of the request's tools asks for strict. */
export function hasStrictTools(request: ChatRequest): boolean {
  return request.tools?.some((tool) => tool.strict === true) === true;
}

function strictToolsKey(request: ChatRequest): string | undefined {
  const strict = (request.tools ?? []).filter((tool) => tool.strict === true).map((tool) => [tool.name, tool.parameters]);
  return strict.length > 0 ? `${request.model.model}\n${contentDigest(strict)}` : undefined;
}

export class StrictToolsTooComplex {
  private readonly refused: RefusalMemory;

  constructor(memories: RefusalMemories) {
    this.refused = memories(modelsRemembered);
  }

  /** Whether the request's strict tools were given up on for its model. */
  has(request: ChatRequest): boolean {
    if (this.refused.size === 0) return false;
    const key = strictToolsKey(request);
    return key !== undefined && this.refused.has(key);
  }

  /** False when the request has no strict tools or they were remembered already. */
  remember(request: ChatRequest): boolean {
    const key = strictToolsKey(request);
    return key !== undefined && this.refused.remember(key);
  }
}
