/**
 * How Claude's API checks a request's `tools`, for the fake Anthropic upstream. A tool is a custom tool (no
 * `type`, or `custom`, with an `input_schema`) or one of Anthropic's own, named by its versioned `type`
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview). Each of those takes the one name
 * its page gives (bash: `bash`; the text editor: `str_replace_editor` before text_editor_20250429,
 * `str_replace_based_edit_tool` since; computer: `computer`, with its display size; memory: `memory`;
 * https://platform.claude.com/docs/en/agents-and-tools/tool-use/text-editor-tool and the computer use and
 * memory tool pages), and no `input_schema`. Some are betas, their type known only with the `anthropic-beta` their
 * page names: computer use (computer-use-2024-10-22 for the first tools, computer-use-2025-01-24,
 * computer-use-2025-11-24) and memory (context-management-2025-06-27).
 * The words are the API's own: "tools.1: Input tag 'web_fetch_20250910' found using 'type' does not match any
 * of the expected tags: 'bash_20250124', 'code_execution_20250522', 'custom', …" (anthropics/anthropic-sdk-go#235,
 * anthropics/claude-code#61624); its other messages follow the same validator ("…: Field required",
 * "…: Input should be 'bash'", "…: Extra inputs are not permitted").
 */

type ToolType = { name: string; fields?: { required: string[]; optional: string[] } };

const editorBefore = { name: 'str_replace_editor' };
const editorSince = { name: 'str_replace_based_edit_tool' };
const display = { required: ['display_width_px', 'display_height_px'], optional: ['display_number'] };

/** Anthropic's tools without a beta (and web search, the server tool the gateway's tests name). */
const generalTypes: ReadonlyMap<string, ToolType> = new Map<string, ToolType>([
  ['bash_20250124', { name: 'bash' }],
  ['text_editor_20250124', editorBefore],
  ['text_editor_20250429', editorSince],
  ['text_editor_20250728', { ...editorSince, fields: { required: [], optional: ['max_characters'] } }],
  [
    'web_search_20250305',
    { name: 'web_search', fields: { required: [], optional: ['max_uses', 'allowed_domains', 'blocked_domains', 'user_location'] } },
  ],
]);

const betaTypes: ReadonlyMap<string, ReadonlyMap<string, ToolType>> = new Map<string, ReadonlyMap<string, ToolType>>([
  [
    'computer-use-2024-10-22',
    new Map<string, ToolType>([
      ['computer_20241022', { name: 'computer', fields: display }],
      ['bash_20241022', { name: 'bash' }],
      ['text_editor_20241022', editorBefore],
    ]),
  ],
  ['computer-use-2025-01-24', new Map<string, ToolType>([['computer_20250124', { name: 'computer', fields: display }]])],
  ['context-management-2025-06-27', new Map<string, ToolType>([['memory_20250818', { name: 'memory' }]])],
  [
    'computer-use-2025-11-24',
    new Map<string, ToolType>([
      ['computer_20251124', { name: 'computer', fields: { required: display.required, optional: [...display.optional, 'enable_zoom'] } }],
    ]),
  ],
]);

/** Fields any tool takes besides its own (prompt caching, tool search's deferral). */
const everyToolFields = ['type', 'name', 'cache_control', 'defer_loading'];

function knownTypes(betas: readonly string[]): Map<string, ToolType> {
  const known = new Map(generalTypes);
  for (const beta of betas) for (const [type, tool] of betaTypes.get(beta) ?? []) known.set(type, tool);
  return known;
}

/** The API's 400 message for the first tool it would refuse, or undefined when it takes them all. */
export function anthropicToolRefusal(tools: unknown, betas: readonly string[]): string | undefined {
  if (!Array.isArray(tools)) return undefined;
  const known = knownTypes(betas);
  for (const [index, value] of tools.entries()) {
    const tool = (value ?? {}) as Record<string, unknown>;
    const type = tool.type;
    if (type === undefined || type === null || type === 'custom') {
      if (tool.input_schema === undefined) return `tools.${index}.custom.input_schema: Field required`;
      continue;
    }
    const definition = typeof type === 'string' ? known.get(type) : undefined;
    if (!definition) {
      const expected = [...known.keys(), 'custom'].sort().map((tag) => `'${tag}'`);
      return `tools.${index}: Input tag '${String(type)}' found using 'type' does not match any of the expected tags: ${expected.join(', ')}`;
    }
    const at = `tools.${index}.${type as string}`;
    if (tool.name !== definition.name) return `${at}.name: Input should be '${definition.name}'`;
    for (const field of definition.fields?.required ?? []) if (tool[field] === undefined) return `${at}.${field}: Field required`;
    const allowed = new Set([...everyToolFields, ...(definition.fields?.required ?? []), ...(definition.fields?.optional ?? [])]);
    const extra = Object.keys(tool).find((field) => !allowed.has(field));
    if (extra !== undefined) return `${at}.${extra}: Extra inputs are not permitted`;
  }
  return undefined;
}
