/** Tool definitions shared by the tool-format tests (the conformance set plus llama.cpp's fixture tools). */
import type { ToolDefinition } from '../../../src/core/index.js';

const tool = (name: string, description: string, properties: Record<string, unknown>, required: string[] = []): ToolDefinition => ({
  name,
  description,
  parameters: { type: 'object', properties, required },
});

export const getWeather = tool(
  'get_weather',
  'Get the current weather for a city.',
  { city: { type: 'string', description: 'City name' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  ['city'],
);
export const searchWeb = tool(
  'search_web',
  'Search the web and return the top results.',
  { query: { type: 'string' }, max_results: { type: 'integer', minimum: 1, maximum: 20 } },
  ['query'],
);
export const writeFile = tool(
  'write_file',
  'Write text to a file, replacing it.',
  { path: { type: 'string' }, content: { type: 'string' } },
  ['path', 'content'],
);
export const readFile = tool(
  'read_file',
  'Read a file, optionally a line range.',
  { path: { type: 'string' }, start_line: { type: 'integer' }, end_line: { type: 'integer' } },
  ['path'],
);
export const getTime = tool('get_time', 'Get the current UTC time.', {});
export const createEvent = tool(
  'create_event',
  'Create a calendar event.',
  {
    title: { type: 'string' },
    attendees: { type: 'array', items: { type: 'string' } },
    options: { type: 'object', properties: { remind: { type: 'boolean' }, minutes: { type: 'integer' } } },
  },
  ['title'],
);
/** Exactly one parameter: positional pythonic arguments map to it. */
export const python = tool('python', 'Run Python code.', { code: { type: 'string' } }, ['code']);

export const standardTools: ToolDefinition[] = [getWeather, searchWeb, writeFile, readFile, getTime, createEvent, python];

/** A tool with every prompt-only extra, for rendering tests. */
export const documentedWeather: ToolDefinition = {
  ...getWeather,
  whenToUse: 'When the user asks about current conditions somewhere.',
  tags: ['weather', 'travel'],
  examples: [{ description: 'Weather in Paris', arguments: { city: 'Paris' } }, { arguments: { city: 'Oslo', unit: 'celsius' } }],
};

/** One argument of every JSON type, for the families that write values by the parameter's declared type. */
export const typed: ToolDefinition = {
  name: 'typed',
  description: 'Takes one argument of every type.',
  parameters: {
    type: 'object',
    properties: {
      code: { type: 'string' },
      count: { type: 'integer' },
      ratio: { type: 'number' },
      enabled: { type: 'boolean' },
      nothing: { type: 'null' },
      tags: { type: 'array', items: { type: 'string' } },
      config: { type: 'object' },
      note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
  },
};
