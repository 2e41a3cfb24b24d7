/** Chat Completions request bodies for the bench, serialised once: a weather question with 1 to 200 tools. */

type WireTool = { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } };

const weatherTool: WireTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the current weather for a city. Returns the temperature in Celsius and a short description of the sky.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city name, e.g. Paris' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['city'],
    },
  },
};

/** A tool shaped like a real agent's (a description of a sentence or two, three typed parameters). */
function fillerTool(index: number): WireTool {
  return {
    type: 'function',
    function: {
      name: `workspace_action_${index}`,
      description: `Performs workspace action number ${index} on a file or directory. Use it only when the user asks for that action explicitly.`,
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

export function benchTools(count: number): WireTool[] {
  return [weatherTool, ...Array.from({ length: count - 1 }, (_, index) => fillerTool(index + 1))];
}

export type BenchRequestOptions = { model: string; stream: boolean; toolCount?: number };

export function benchRequestBody(options: BenchRequestOptions): Buffer {
  const body: Record<string, unknown> = {
    model: options.model,
    messages: [
      { role: 'system', content: 'You are a helpful assistant. Use the tools when they help.' },
      { role: 'user', content: 'What is the weather in Paris right now?' },
    ],
    tools: benchTools(options.toolCount ?? 1),
    temperature: 0,
  };
  if (options.stream) body.stream = true;
  return Buffer.from(JSON.stringify(body));
}
