/** The generateContent body built from neutral requests: contents, tools, tool config, generation config, warnings. */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/index.js';
import { buildGeminiRequestBody } from '../../../providers/gemini/build-gemini-request-body.js';
import { encodeGeminiCallId } from '../../../providers/gemini/gemini-tool-call-id.js';
import { testModel, testRequest } from './gemini-test-kit.js';

const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };

describe('buildGeminiRequestBody', () => {
  it('puts system messages in systemInstruction and turns into user/model contents, tool results named after their calls', () => {
    const signedId = encodeGeminiCallId('call-1', 'c2lnbmF0dXJlLW9uZQ==');
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: signedId, name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'call-2', name: 'get_weather', arguments: '{"city":"Rome"}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: signedId, output: 'sunny' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call-2', output: 'no data', isError: true }] },
    ];
    const { body } = buildGeminiRequestBody(testRequest({ messages }), 'google');
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'call-1', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnbmF0dXJlLW9uZQ==' },
          { functionCall: { id: 'call-2', name: 'get_weather', args: { city: 'Rome' } } },
        ],
      },
      // Both responses of the parallel calls in one user turn.
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call-1', name: 'get_weather', response: { result: 'sunny' } } },
          { functionResponse: { id: 'call-2', name: 'get_weather', response: { error: 'no data' } } },
        ],
      },
    ]);
  });

  it('sends images from data URLs as inlineData, and URLs as fileData', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'file', mediaType: 'image/png', data: 'data:image/png;base64,iVBORw0KGgo=' },
          { type: 'file', mediaType: 'image/jpeg', data: 'https://example.org/cat.jpg' },
        ],
      },
    ];
    const { body } = buildGeminiRequestBody(testRequest({ messages }), 'google');
    expect(body.contents[0]?.parts).toEqual([
      { text: 'What is this?' },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.org/cat.jpg' } },
    ]);
  });

  it('keeps a reasoning signature on the part that followed the thought, and drops the thought text', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking…', signature: 'dGhvdWdodA==' },
          { type: 'text', text: 'Hello!' },
        ],
      },
    ];
    const { body } = buildGeminiRequestBody(testRequest({ messages }), 'google');
    expect(body.contents[1]).toEqual({ role: 'model', parts: [{ text: 'Hello!', thoughtSignature: 'dGhvdWdodA==' }] });
  });

  it('declares tools with their JSON Schema as given (parametersJsonSchema)', () => {
    const { body } = buildGeminiRequestBody(
      testRequest({ tools: [{ name: 'get_weather', description: 'Weather now', parameters: weather }] }),
      'google',
    );
    expect(body.tools).toEqual([
      { functionDeclarations: [{ name: 'get_weather', description: 'Weather now', parametersJsonSchema: weather }] },
    ]);
    expect(body.toolConfig).toBeUndefined();
  });

  it.each([
    [{ type: 'auto' } as const, { mode: 'AUTO' }],
    [{ type: 'none' } as const, { mode: 'NONE' }],
    [{ type: 'required' } as const, { mode: 'ANY' }],
    [{ type: 'tool', name: 'get_weather' } as const, { mode: 'ANY', allowedFunctionNames: ['get_weather'] }],
  ])('maps tool_choice %j to functionCallingConfig %j', (toolChoice, expected) => {
    const { body } = buildGeminiRequestBody(testRequest({ tools: [{ name: 'get_weather', parameters: weather }], toolChoice }), 'google');
    expect(body.toolConfig).toEqual({ functionCallingConfig: expected });
  });

  it('maps sampling options to generationConfig, forwarding 0 and leaving null out', () => {
    const request = testRequest({
      temperature: 0,
      topP: 0.9,
      maxOutputTokens: 100,
      stop: ['END'],
      seed: 7,
      presencePenalty: null,
      responseFormat: { type: 'json_object' },
    });
    expect(buildGeminiRequestBody(request, 'google').body.generationConfig).toEqual({
      temperature: 0,
      topP: 0.9,
      maxOutputTokens: 100,
      stopSequences: ['END'],
      seed: 7,
      responseMimeType: 'application/json',
    });
  });

  it("takes a client's top_k as generationConfig.topK, and warns of the extras Gemini has no field for", () => {
    const { body, warnings } = buildGeminiRequestBody(testRequest({ openaiExtras: { top_k: 40, min_p: 0.1 } }), 'google');
    expect(body.generationConfig?.topK).toBe(40);
    expect(warnings.map((warning) => warning.message).join('\n')).toContain('min_p');
    expect(warnings.map((warning) => warning.message).join('\n')).not.toContain('top_k');
  });

  it.each([
    [
      { logprobs: true, top_logprobs: 3 },
      { responseLogprobs: true, logprobs: 3 },
    ],
    [{ logprobs: true, top_logprobs: 0 }, { responseLogprobs: true }],
    [{ logprobs: false, top_logprobs: 0 }, undefined],
  ])('takes logprobs %j as responseLogprobs and logprobs, without a warning', (extras, expected) => {
    const { body, warnings } = buildGeminiRequestBody(testRequest({ openaiExtras: extras }), 'google');
    expect(body.generationConfig).toEqual(expected);
    expect(warnings).toEqual([]);
  });

  it.each([
    ['gemini-2.5-flash', 'low', { thinkingBudget: 1024, includeThoughts: true }],
    ['gemini-2.5-flash', 'none', { thinkingBudget: 0 }],
    ['gemini-3-pro-preview', 'high', { thinkingLevel: 'high', includeThoughts: true }],
  ])('maps reasoning_effort for %s %s to thinkingConfig', (model, reasoningEffort, expected) => {
    const request = testRequest({ model: { ...testModel, model }, reasoningEffort });
    expect(buildGeminiRequestBody(request, 'google').body.generationConfig?.thinkingConfig).toEqual(expected);
  });

  it('gives Gemma models their instructions at the start of the first user turn (they refuse systemInstruction)', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Tools: …' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ];
    const { body } = buildGeminiRequestBody(testRequest({ model: { ...testModel, model: 'gemma-3-27b-it' }, messages }), 'google');
    expect(body.systemInstruction).toBeUndefined();
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'Tools: …' }, { text: 'Hi' }] }]);
  });

  it('warns about what Gemini has no field for', () => {
    const { warnings } = buildGeminiRequestBody(
      testRequest({ user: 'u-1', parallelToolCalls: false, openaiExtras: { logit_bias: {} } }),
      'google',
    );
    expect(warnings.map((warning) => warning.message)).toEqual([
      "Parameter 'user' is not supported by Gemini provider 'google' and was ignored.",
      "Parameter 'parallel_tool_calls' is not supported by Gemini provider 'google' and was ignored.",
      "Parameter 'logit_bias' is not supported by Gemini provider 'google' and was ignored.",
    ]);
  });
});
