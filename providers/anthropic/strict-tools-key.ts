/**
 * The model and its strict tools, as a memory key: a set of strict tools whose grammar the host gave up on
 * (src/core/grammar-too-complex.ts) is remembered by it, on Claude's API, Vertex AI and Bedrock alike.
 * Undefined when no tool asks for strict.
 */
import type { ChatRequest } from '../../src/core/index.js';
import { contentDigest } from '../../src/core/content-digest.js';

export function strictToolsKey(request: ChatRequest): string | undefined {
  const strict = (request.tools ?? []).filter((tool) => tool.strict === true).map((tool) => [tool.name, tool.parameters]);
  return strict.length > 0 ? `${request.model.model}\n${contentDigest(strict)}` : undefined;
}
