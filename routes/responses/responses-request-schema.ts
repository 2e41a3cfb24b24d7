/**
 * JSON Schema for the Responses request body: loose on purpose (unknown fields such as Codex's
 * client_metadata, include, store or prompt_cache_key are ignored, never rejected), strict where a
 * wrong type would otherwise become a confusing upstream error. Item shapes follow `InputItem` in
 * OpenAI's OpenAPI document.
 */

const nullableNumber = { type: ['number', 'null'] };
const nullableString = { type: ['string', 'null'] };

const contentPart = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string' } },
  allOf: [
    {
      if: { properties: { type: { enum: ['input_text', 'output_text'] } } },
      then: { required: ['text'], properties: { text: { type: 'string' } } },
    },
    { if: { properties: { type: { const: 'refusal' } } }, then: { required: ['refusal'], properties: { refusal: { type: 'string' } } } },
  ],
};

const messageContent = { anyOf: [{ type: 'string' }, { type: 'array', items: contentPart }] };
const toolOutput = { anyOf: [{ type: 'string' }, { type: 'array', items: contentPart }] };

/** `if type is X then …`: ajv reports the missing field with the item's path, e.g. `input[3].call_id`. */
function whenType(type: string, then: object): object {
  return { if: { required: ['type'], properties: { type: { const: type } } }, then };
}

const inputItem = {
  type: 'object',
  properties: { type: { type: 'string' } },
  allOf: [
    // An item without `type` is an easy message: `{role, content}`.
    {
      if: { anyOf: [{ not: { required: ['type'] } }, { properties: { type: { const: 'message' } } }] },
      then: {
        required: ['role', 'content'],
        properties: { role: { enum: ['user', 'assistant', 'system', 'developer'] }, content: messageContent },
      },
    },
    whenType('function_call', {
      required: ['call_id', 'name', 'arguments'],
      properties: { call_id: { type: 'string', minLength: 1 }, name: { type: 'string', minLength: 1 }, arguments: { type: 'string' } },
    }),
    whenType('function_call_output', {
      required: ['call_id', 'output'],
      properties: { call_id: { type: 'string', minLength: 1 }, output: toolOutput },
    }),
    whenType('custom_tool_call', {
      required: ['call_id', 'name', 'input'],
      properties: { call_id: { type: 'string', minLength: 1 }, name: { type: 'string', minLength: 1 }, input: { type: 'string' } },
    }),
    whenType('custom_tool_call_output', {
      required: ['call_id', 'output'],
      properties: { call_id: { type: 'string', minLength: 1 }, output: toolOutput },
    }),
  ],
};

const functionTool = {
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 128 },
    description: nullableString,
    parameters: { type: ['object', 'null'] },
    strict: { type: ['boolean', 'null'] },
  },
};

const customTool = {
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 128 }, description: nullableString, format: { type: ['object', 'null'] } },
};

const namespacedTool = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: ['function', 'custom'] } },
  allOf: [whenType('function', functionTool), whenType('custom', customTool)],
};

const tool = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string' } },
  allOf: [
    whenType('function', functionTool),
    whenType('custom', customTool),
    whenType('namespace', {
      required: ['name', 'tools'],
      properties: { name: { type: 'string' }, tools: { type: 'array', items: namespacedTool } },
    }),
  ],
};

const toolChoice = {
  anyOf: [
    { enum: ['auto', 'none', 'required'] },
    { type: 'null' },
    { type: 'object', required: ['type'], properties: { type: { type: 'string' }, name: { type: 'string' } } },
  ],
};

export const responsesRequestSchema = {
  type: 'object',
  required: ['model'],
  properties: {
    model: { type: 'string', minLength: 1 },
    input: { anyOf: [{ type: 'string' }, { type: 'array', items: inputItem }] },
    instructions: nullableString,
    tools: { type: ['array', 'null'], items: tool },
    tool_choice: toolChoice,
    parallel_tool_calls: { type: ['boolean', 'null'] },
    max_output_tokens: { type: ['integer', 'null'], minimum: 1 },
    temperature: nullableNumber,
    top_p: nullableNumber,
    reasoning: { type: ['object', 'null'], properties: { effort: nullableString } },
    text: {
      type: ['object', 'null'],
      properties: {
        format: { type: ['object', 'null'], required: ['type'], properties: { type: { enum: ['text', 'json_object', 'json_schema'] } } },
      },
    },
    stream: { type: ['boolean', 'null'] },
    previous_response_id: nullableString,
    metadata: { type: ['object', 'null'] },
    user: nullableString,
    safety_identifier: nullableString,
  },
} as const;
