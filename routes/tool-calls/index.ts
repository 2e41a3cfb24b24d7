/**
 * The inspector's API: POST /v1/tool-calls/parse (a model's text → what a reply gives), POST
 * /v1/tool-calls/render (tools and history → what the model is sent, and each call in every syntax),
 * GET /v1/tool-calls/families and GET /v1/tool-calls/recent. Behind the same keys as every route.
 */
import type { FastifyInstance } from 'fastify';
import type { Message } from '../../src/core/message.js';
import type { RecentReplies, RecentReply } from '../../src/pipeline/recent-replies.js';
import type { FamilyChoice, ToolCallInspector } from '../../src/pipeline/tool-call-inspector.js';
import { foldChatCompletion } from '../chat-completions/fold-chat-completion.js';
import type { BodyValidators } from '../shared/body-validator.js';
import { renderDiagnostics } from '../shared/render-diagnostics.js';
import { toOpenAiFinishReason } from '../shared/openai-wire.js';
import { parseParseRequest, parseRenderRequest } from './parse-tool-calls-request.js';

export type ToolCallsRouteOptions = { inspector: ToolCallInspector; validators: BodyValidators; recentReplies?: RecentReplies };

function choiceFields(choice: FamilyChoice) {
  return {
    family: choice.family,
    family_source: choice.source,
    model: choice.model.id,
    opens_in_reasoning: choice.model.opensInReasoning ?? null,
  };
}

/** A message as plain text, the way a prompted model reads it. */
function wireMessage(message: Message): { role: string; content: string } {
  if (typeof message.content === 'string') return { role: message.role, content: message.content };
  const text = message.content
    .map((part) => {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          return part.text;
        // Encrypted reasoning no prompted model can read.
        case 'redacted-reasoning':
          return '';
        case 'file':
          return `[file: ${part.mediaType}]`;
        case 'tool-call':
          return `[tool call ${part.name} ${part.arguments}]`;
        case 'tool-result':
          return `[tool result ${part.output}]`;
      }
    })
    .join('');
  return { role: message.role, content: text };
}

function wireRecentReply(reply: RecentReply) {
  return {
    id: reply.id,
    time: reply.time,
    model: reply.model,
    family: reply.family,
    raw: reply.raw,
    content: reply.content,
    reasoning: reply.reasoning,
    calls: reply.calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
    diagnostics: renderDiagnostics(reply.diagnostics) ?? null,
    finish_reason: reply.finishReason ? toOpenAiFinishReason(reply.finishReason) : null,
    error: reply.error ?? null,
  };
}

export function registerToolCallsRoutes(app: FastifyInstance, options: ToolCallsRouteOptions): void {
  const { inspector, validators, recentReplies } = options;

  app.post('/v1/tool-calls/parse', async (request) => {
    const parsed = parseParseRequest(request.body, validators, request.gatewayContext?.access ?? null);
    const inspection = inspector.parse(parsed.target, parsed.chunks, parsed.tools, parsed.parallelToolCalls);
    const result = await foldChatCompletion(inspection.events, { id: 'inspection', created: 0, model: inspection.model.id });
    if ('error' in result) throw result.error;
    const choice = (result.body.choices as { message: Record<string, unknown>; finish_reason: string }[])[0];
    const message = choice?.message ?? {};
    return {
      object: 'tool_calls.parse',
      ...choiceFields(inspection),
      calls: message.tool_calls ?? [],
      content: message.content ?? '',
      reasoning: message.reasoning_content ?? '',
      finish_reason: choice?.finish_reason ?? null,
      diagnostics: result.body.diagnostics ?? null,
      chunks: parsed.chunks.length,
    };
  });

  app.post('/v1/tool-calls/render', async (request) => {
    const parsed = parseRenderRequest(request.body, validators, request.gatewayContext?.access ?? null);
    const rendered = inspector.render(parsed.target, parsed.messages, parsed.tools, parsed.toolChoice, parsed.calls);
    const messages = rendered.messages.map(wireMessage);
    return {
      object: 'tool_calls.render',
      ...choiceFields(rendered),
      system: messages[0]?.role === 'system' ? messages[0].content : null,
      messages,
      warnings: rendered.warnings,
      calls: rendered.calls.map((call) => ({
        name: call.name,
        arguments: call.arguments,
        family: call.family,
        agent_formats: call.agentFormats,
      })),
    };
  });

  app.get<{ Querystring: { model?: string } }>('/v1/tool-calls/families', async (request) => {
    const body: Record<string, unknown> = {
      object: 'tool_calls.families',
      families: inspector.families(),
      agent_formats: inspector.agentFormats(),
    };
    const model = request.query.model;
    if (typeof model === 'string' && model !== '') {
      const choice = inspector.choose({ model, access: request.gatewayContext?.access ?? null });
      // For a configured model, the server found behind its provider and the lane its requests take now.
      body.resolved = { ...choiceFields(choice), server: choice.model.server ?? null, tool_calling: choice.lane ?? null };
    }
    return body;
  });

  // A key sees only the replies to its own requests; without client auth every caller is the same one.
  app.get('/v1/tool-calls/recent', async (request) => ({
    object: 'list',
    enabled: recentReplies !== undefined,
    capacity: recentReplies?.capacity ?? 0,
    data: recentReplies?.list(request.gatewayContext?.access?.name ?? null).map(wireRecentReply) ?? [],
  }));
}
