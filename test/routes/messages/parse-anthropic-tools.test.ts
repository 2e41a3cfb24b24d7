/** Anthropic tools → neutral definitions; a known (deeply frozen) wire list is translated once, its warnings given to every request. */
import { describe, expect, it } from 'vitest';
import { isSharedToolList, shareToolList } from '../../../src/core/shared-tool-list.js';
import { RequestCaches } from '../../../src/core/request-caches.js';

/** One set for the file, as the app has one. */
const caches = new RequestCaches();
import type { Warning } from '../../../src/core/warning.js';
import type { WireTool } from '../../../routes/messages/messages-request-schema.js';
import { parseAnthropicTools } from '../../../routes/messages/parse-anthropic-tools.js';

const schemaMarker = 'https://json-schema.org/draft/2020-12/schema';

function wireTools(): WireTool[] {
  return [
    {
      name: 'Read',
      description: 'Reads a file.',
      input_schema: { $schema: schemaMarker, type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
    },
    { name: 'web_search', type: 'web_search_20250305', max_uses: 3 },
    { name: 'Notes', type: 'custom' },
  ];
}

const expected = [
  {
    name: 'Read',
    description: 'Reads a file.',
    parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
  },
  { name: 'Notes', parameters: { type: 'object', properties: {} } },
];

describe('parseAnthropicTools', () => {
  it('keeps custom tools without the schema dialect marker and reports the server tool it leaves out', () => {
    const warnings: Warning[] = [];
    expect(parseAnthropicTools(wireTools(), warnings, caches)).toEqual(expected);
    expect(warnings).toEqual([
      { code: 'unsupported-tool', message: expect.stringContaining("'web_search' of type 'web_search_20250305'") },
    ]);
  });

  it('offers the bash and text editor client tools with the inputs Anthropic documents, under the names the client gave', () => {
    const warnings: Warning[] = [];
    const tools = parseAnthropicTools(
      [
        { type: 'bash_20250124', name: 'bash', cache_control: { type: 'ephemeral' } },
        { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
        { type: 'text_editor_20250124', name: 'str_replace_editor' },
        { type: 'computer_20250124', name: 'computer', display_width_px: 1024, display_height_px: 768 },
      ],
      warnings,
      caches,
    );
    expect(tools.map((tool) => tool.name)).toEqual(['bash', 'str_replace_based_edit_tool', 'str_replace_editor', 'computer']);
    expect(tools[0]).toMatchObject({
      parameters: { type: 'object', properties: { command: { type: 'string' }, restart: { type: 'boolean' } } },
      cache: { type: 'ephemeral' },
    });
    expect(tools[1]!.parameters).toMatchObject({
      required: ['command', 'path'],
      properties: { command: { enum: ['view', 'create', 'str_replace', 'insert'] }, insert_line: { type: 'integer' } },
    });
    // The versions before text_editor_20250429 can still undo.
    expect(tools[2]!.parameters).toMatchObject({ properties: { command: { enum: expect.arrayContaining(['undo_edit']) } } });
    // Claude gets each as the client defined it, without the name and the cache mark the neutral tool holds.
    expect(tools.map((tool) => tool.anthropicTool)).toEqual([
      { type: 'bash_20250124' },
      { type: 'text_editor_20250728' },
      { type: 'text_editor_20250124' },
      { type: 'computer_20250124', display_width_px: 1024, display_height_px: 768 },
    ]);
    expect(warnings).toEqual([]);
  });

  it.each(['web_fetch_20250910', 'code_execution_20250825', 'tool_search_tool_bm25', 'tool_search_tool_regex_20251119', 'mcp_toolset'])(
    'leaves the server tool %s out with a warning',
    (type) => {
      const warnings: Warning[] = [];
      expect(parseAnthropicTools([{ type, name: 'server_tool' }], warnings, caches)).toEqual([]);
      expect(warnings).toEqual([{ code: 'unsupported-tool', message: expect.stringContaining(`of type '${type}' is a server tool`) }]);
    },
  );

  it('refuses a tool type it does not know, naming it, rather than leaving the tool out', () => {
    expect(() => parseAnthropicTools([{ type: 'bash_20990101', name: 'bash' }], [], caches)).toThrow(
      expect.objectContaining({ status: 400, param: 'tools[0].type', message: expect.stringContaining("type 'bash_20990101'") }),
    );
  });

  it('gives each request its own copy of a client tool schema', () => {
    const [first] = parseAnthropicTools([{ type: 'bash_20250124', name: 'bash' }], [], caches);
    const [second] = parseAnthropicTools([{ type: 'bash_20250124', name: 'bash' }], [], caches);
    expect(first!.parameters).not.toBe(second!.parameters);
  });

  it('translates a known list once into one deeply frozen array shared by every request', () => {
    const known = shareToolList(wireTools());
    const first = parseAnthropicTools(known, [], caches);
    expect(parseAnthropicTools(known, [], caches)).toBe(first);
    expect(first).toEqual(expected);
    expect(isSharedToolList(first)).toBe(true);
    expect(Object.isFrozen(first[0]!.parameters)).toBe(true);
  });

  it('reports a known list’s warnings on every request, into that request’s own list', () => {
    const known = shareToolList(wireTools());
    const requests = [[{ code: 'earlier', message: 'from the messages' }], [], []] as Warning[][];
    for (const warnings of requests) parseAnthropicTools(known, warnings, caches);
    expect(requests[0]!.map((warning) => warning.code)).toEqual(['earlier', 'unsupported-tool']);
    expect(requests[1]!.map((warning) => warning.code)).toEqual(['unsupported-tool']);
    expect(requests[2]).toEqual(requests[1]);
  });

  it('translates a list that is not known afresh each time, leaving the result mutable', () => {
    const tools = wireTools();
    const first = parseAnthropicTools(tools, [], caches);
    expect(parseAnthropicTools(tools, [], caches)).not.toBe(first);
    expect(isSharedToolList(first)).toBe(false);
    expect(Object.isFrozen(first)).toBe(false);
  });
});
