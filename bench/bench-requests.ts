/**
 * Chat Completions request bodies for the bench, serialised once: a weather question with 1 to 200
 * tools, the same list in every request (as agents send it) or one of several lists that differ.
 */

type WireTool = { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } };

/** Text that makes each list variant's descriptions differ from the first tool on (none for variant 0). */
function variantNote(variant: number): string {
  return variant === 0 ? '' : ` (list ${variant})`;
}

const weatherTool = (variant: number): WireTool => ({
  type: 'function',
  function: {
    name: 'get_weather',
    description: `Get the current weather for a city${variantNote(variant)}. Returns the temperature in Celsius and a short description of the sky.`,
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city name, e.g. Paris' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['city'],
    },
  },
});

/** A tool shaped like a real agent's (a description of a sentence or two, three typed parameters). */
function fillerTool(index: number, variant: number): WireTool {
  return {
    type: 'function',
    function: {
      name: `workspace_action_${index}`,
      description: `Performs workspace action number ${index} on a file or directory${variantNote(variant)}. Use it only when the user asks for that action explicitly.`,
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Path relative to the workspace root' },
          recursive: { type: 'boolean', description: 'Apply to every file below the path' },
          limit: { type: 'integer', description: 'At most this many entries' },
        },
        required: ['path'],
      },
    },
  };
}

/** `count` tools; each `variant` is a different list of the same size and shape. */
export function benchTools(count: number, variant = 0): WireTool[] {
  return [weatherTool(variant), ...Array.from({ length: count - 1 }, (_, index) => fillerTool(index + 1, variant))];
}

export type BenchRequestOptions = { model: string; stream: boolean; toolCount?: number; toolListVariant?: number };

export function benchRequestBody(options: BenchRequestOptions): Buffer {
  const body: Record<string, unknown> = {
    model: options.model,
    messages: [
      { role: 'system', content: 'You are a helpful assistant. Use the tools when they help.' },
      { role: 'user', content: 'What is the weather in Paris right now?' },
    ],
    tools: benchTools(options.toolCount ?? 1, options.toolListVariant),
    temperature: 0,
  };
  if (options.stream) body.stream = true;
  return Buffer.from(JSON.stringify(body));
}

/** One body per list variant (1 … `lists`), none of them the default list: requests that rotate through them never repeat a list soon. */
export function rotatingBenchBodies(options: BenchRequestOptions, lists: number): Buffer[] {
  return Array.from({ length: lists }, (_, index) => benchRequestBody({ ...options, toolListVariant: index + 1 }));
}
