/**
 * openapi.yaml's request bodies agree with the route schemas that validate them: the same top-level
 * fields, the same required lists, and wherever the document states a type, an enum or a bound, the
 * route's schema states the same one. A field added to a route without its documentation fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { chatCompletionRequestSchema } from '../routes/chat-completions/chat-completion-request-schema.js';
import { countTokensRequestSchema, messagesRequestSchema } from '../routes/messages/messages-request-schema.js';
import { responsesRequestSchema } from '../routes/responses/responses-request-schema.js';
import { parseRequestSchema, renderRequestSchema } from '../routes/tool-calls/tool-calls-request-schema.js';

type SchemaNode = {
  $ref?: string;
  type?: string | readonly string[];
  required?: readonly string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  [keyword: string]: unknown;
};

type Document = {
  paths: Record<string, Record<string, { requestBody: { content: { 'application/json': { schema: SchemaNode } } } }>>;
  components: { schemas: Record<string, SchemaNode> };
};

const document = parse(readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8')) as Document;

function resolved(node: SchemaNode): SchemaNode {
  if (node.$ref === undefined) return node;
  const name = node.$ref.replace('#/components/schemas/', '');
  const target = document.components.schemas[name];
  if (target === undefined) throw new Error(`openapi.yaml: ${node.$ref} does not exist`);
  return target;
}

function documentedBody(path: string): SchemaNode {
  const operation = document.paths[path]?.post;
  if (operation === undefined) throw new Error(`openapi.yaml documents no POST ${path}`);
  return resolved(operation.requestBody.content['application/json'].schema);
}

/** Keywords compared wherever both sides state them (`type` as a set: `[string, 'null']` = `['null', 'string']`). */
const comparedKeywords = ['enum', 'const', 'minimum', 'maximum', 'minItems', 'minLength', 'additionalProperties'] as const;

function typeSet(type: SchemaNode['type']): string[] | undefined {
  if (type === undefined) return undefined;
  return (typeof type === 'string' ? [type] : [...type]).sort();
}

/**
 * The differences between what the document says about a field and what its route checks. The
 * document may say less below the top level (it points at OpenAI's and Anthropic's own schemas for
 * the details), never something else.
 */
function drift(documented: SchemaNode, served: SchemaNode, where: string, topLevel: boolean): string[] {
  const problems: string[] = [];
  const documentedType = typeSet(documented.type);
  if (documentedType !== undefined && JSON.stringify(documentedType) !== JSON.stringify(typeSet(served.type)))
    problems.push(`${where}: type ${JSON.stringify(documentedType)} documented, ${JSON.stringify(typeSet(served.type))} checked`);
  for (const keyword of comparedKeywords) {
    if (
      documented[keyword] !== undefined &&
      served[keyword] !== undefined &&
      JSON.stringify(documented[keyword]) !== JSON.stringify(served[keyword])
    )
      problems.push(`${where}: ${keyword} ${JSON.stringify(documented[keyword])} documented, ${JSON.stringify(served[keyword])} checked`);
  }
  if (
    (documented.required !== undefined || topLevel) &&
    JSON.stringify([...(documented.required ?? [])].sort()) !== JSON.stringify([...(served.required ?? [])].sort())
  )
    problems.push(
      `${where}: required ${JSON.stringify(documented.required ?? [])} documented, ${JSON.stringify(served.required ?? [])} checked`,
    );
  const documentedProperties = documented.properties ?? {};
  const servedProperties = served.properties ?? {};
  if (topLevel) {
    for (const name of Object.keys(servedProperties))
      if (!(name in documentedProperties)) problems.push(`${where}.${name}: checked by the route but not documented`);
  }
  for (const [name, property] of Object.entries(documentedProperties)) {
    const servedProperty = servedProperties[name];
    if (servedProperty === undefined) problems.push(`${where}.${name}: documented but not part of the route's schema`);
    else problems.push(...drift(property, servedProperty, `${where}.${name}`, false));
  }
  if (documented.items !== undefined && served.items !== undefined)
    problems.push(...drift(documented.items, served.items, `${where}[]`, false));
  return problems;
}

const bodies: [path: string, schema: object][] = [
  ['/v1/chat/completions', chatCompletionRequestSchema],
  ['/v1/messages', messagesRequestSchema],
  ['/v1/messages/count_tokens', countTokensRequestSchema],
  ['/v1/responses', responsesRequestSchema],
  ['/v1/tool-calls/parse', parseRequestSchema],
  ['/v1/tool-calls/render', renderRequestSchema],
];

describe('openapi.yaml request bodies', () => {
  it.each(bodies)('POST %s is documented as its route checks it', (path, schema) => {
    expect(drift(documentedBody(path), schema as SchemaNode, path, true)).toEqual([]);
  });

  it('notices a field, a required entry and an enum value that drifted', () => {
    const served = {
      type: 'object',
      required: ['model'],
      properties: { model: { type: 'string' }, effort: { enum: ['low', 'high'] }, extra: { type: 'string' } },
    } as const;
    const documented: SchemaNode = {
      type: 'object',
      required: ['model', 'input'],
      properties: { model: { type: 'string' }, effort: { enum: ['low', 'medium'] }, gone: { type: 'string' } },
    };
    expect(drift(documented, served, 'body', true)).toEqual([
      'body: required ["model","input"] documented, ["model"] checked',
      'body.extra: checked by the route but not documented',
      'body.effort: enum ["low","medium"] documented, ["low","high"] checked',
      "body.gone: documented but not part of the route's schema",
    ]);
  });
});
