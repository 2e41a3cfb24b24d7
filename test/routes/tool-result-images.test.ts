/**
 * Images a tool returns (computer use's screenshots, an image a tool read) go back inside the tool result to
 * upstreams whose results take them: Claude's tool_result `content` blocks (Anthropic API, and Vertex through
 * the same body), Bedrock's `toolResult.content` for Claude and Nova. A Bedrock model without them gets the
 * image as user content after the results, which the fake Bedrock requires as the real one does (it refuses
 * an image in a tool result for such a model with AWS's words).
 */
import { describe, expect, it } from 'vitest';
import { claudeAndBedrockForFile, postForOk } from '../helpers/claude-and-bedrock.js';

const fakes = claudeAndBedrockForFile();

const png = 'iVBORw0KGgoAAAANSUhEUg==';
const bedrockClaude = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const bedrockLlama = 'meta.llama3-1-70b-instruct-v1:0';
const computer = { name: 'computer', input_schema: { type: 'object', properties: { action: { type: 'string' } } } };
const messagesHeaders = { 'anthropic-version': '2023-06-01' };

/** A Messages API computer-use turn: the screenshot call, and its result with a caption and the image. */
function messagesRequest(model: string) {
  return {
    model,
    max_tokens: 100,
    tools: [computer],
    messages: [
      { role: 'user', content: 'What is on the screen?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_shot', name: 'computer', input: { action: 'screenshot' } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_shot',
            content: [
              { type: 'text', text: 'Screenshot taken.' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
            ],
          },
        ],
      },
    ],
  };
}

/** The same turn from a Responses client (Codex's view_image, an MCP screenshot): an input_image in the output. */
function responsesRequest(model: string) {
  return {
    model,
    tools: [{ type: 'function', name: 'computer', parameters: computer.input_schema }],
    input: [
      { role: 'user', content: 'What is on the screen?' },
      { type: 'function_call', call_id: 'call_shot', name: 'computer', arguments: '{"action":"screenshot"}' },
      { type: 'function_call_output', call_id: 'call_shot', output: [{ type: 'input_image', image_url: `data:image/png;base64,${png}` }] },
    ],
  };
}

type AnthropicTurn = { role: string; content: Record<string, unknown>[] };
type ConverseTurn = { role: string; content: Record<string, unknown>[] };

function lastAnthropicTurns(): AnthropicTurn[] {
  return (fakes.anthropic.messageRequests().at(-1)!.body as { messages: AnthropicTurn[] }).messages;
}

function lastConverseTurns(): ConverseTurn[] {
  return (fakes.bedrock.requests.at(-1)!.body as { messages: ConverseTurn[] }).messages;
}

const anthropicImage = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } };
// The SDK writes blob members as base64: the same text means the same bytes.
const converseImage = { image: { format: 'png', source: { bytes: png } } };

describe('images returned by a tool', () => {
  it('reach Claude inside the tool_result, after its text, from the Messages API', async () => {
    fakes.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'A login form.' }] });
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, messagesRequest('claude/claude-sonnet-4-5'), messagesHeaders);
    expect(lastAnthropicTurns().at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_shot', content: [{ type: 'text', text: 'Screenshot taken.' }, anthropicImage] }],
    });
  });

  it('reach Claude inside the tool_result from a Responses function_call_output with only an input_image', async () => {
    fakes.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'A login form.' }] });
    await postForOk(`${fakes.gateway.baseUrl}/v1/responses`, responsesRequest('claude/claude-sonnet-4-5'));
    expect(lastAnthropicTurns().at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'call_shot', content: [anthropicImage] }],
    });
  });

  it('stay user content after the results when the client wrote them there itself', async () => {
    fakes.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'A cat.' }] });
    const request = messagesRequest('claude/claude-sonnet-4-5');
    const messages: unknown[] = request.messages;
    messages[2] = {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_shot', content: 'Done.' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
      ],
    };
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, request, messagesHeaders);
    expect(lastAnthropicTurns().at(-1)?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_shot', content: 'Done.' },
      anthropicImage,
    ]);
  });

  it("reach Claude on Bedrock inside the toolResult's content, from the Messages API and from Responses", async () => {
    fakes.bedrock.enqueue({ type: 'message', text: 'A login form.' });
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, messagesRequest(`bedrock/${bedrockClaude}`), messagesHeaders);
    expect(lastConverseTurns().at(-1)).toEqual({
      role: 'user',
      content: [{ toolResult: { toolUseId: 'toolu_shot', content: [{ text: 'Screenshot taken.' }, converseImage], status: 'success' } }],
    });
    fakes.bedrock.enqueue({ type: 'message', text: 'A login form.' });
    await postForOk(`${fakes.gateway.baseUrl}/v1/responses`, responsesRequest(`bedrock/${bedrockClaude}`));
    expect(lastConverseTurns().at(-1)).toEqual({
      role: 'user',
      content: [{ toolResult: { toolUseId: 'call_shot', content: [converseImage], status: 'success' } }],
    });
  });

  it('follow the results as user content for a Bedrock model whose tool results take no image', async () => {
    fakes.bedrock.enqueue({ type: 'message', text: 'A login form.' });
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, messagesRequest(`bedrock/${bedrockLlama}`), messagesHeaders);
    expect(lastConverseTurns().at(-1)).toEqual({
      role: 'user',
      content: [{ toolResult: { toolUseId: 'toolu_shot', content: [{ text: 'Screenshot taken.' }], status: 'success' } }, converseImage],
    });
  });
});
