/**
 * PDFs a tool returns (a tool that fetched a report, an MCP resource) go back inside the tool result to Claude,
 * as its images do (tool-result-images.test.ts): Claude's `tool_result.content` takes `document` blocks
 * (anthropics/anthropic-sdk-python src/anthropic/types/tool_result_block_param.py: text, image, search result
 * and document blocks), on Anthropic's API and on Vertex through the same body; Bedrock's `toolResult.content`
 * takes `document` blocks (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultContentBlock.html),
 * each with a `name` and a `format` (API_runtime_DocumentBlock.html), which the fake Bedrock checks as AWS does.
 */
import { describe, expect, it } from 'vitest';
import { postForOk } from '../helpers/claude-and-bedrock.js';
import { postJson } from '../helpers/read-sse.js';
import { claudeModels, claudeOnThreeProvidersForFile } from '../helpers/claude-on-three-providers.js';

const fakes = claudeOnThreeProvidersForFile();

/** "%PDF-1.4" and a little more, base64. */
const pdf = 'JVBERi0xLjQKJcfsj6IK';
const fetchReport = { name: 'fetch_report', input_schema: { type: 'object', properties: { year: { type: 'integer' } } } };
const messagesHeaders = { 'anthropic-version': '2023-06-01' };

/** A Messages API turn: the call, and its result with a caption and the report as a PDF document. */
function messagesRequest(model: string, title = 'annual report.pdf') {
  return {
    model,
    max_tokens: 100,
    tools: [fetchReport],
    messages: [
      { role: 'user', content: 'Summarize the 2025 report.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_report', name: 'fetch_report', input: { year: 2025 } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_report',
            content: [
              { type: 'text', text: 'Fetched.' },
              { type: 'document', title, source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
            ],
          },
        ],
      },
    ],
  };
}

/** The same turn from a Responses client: an input_file in the function_call_output. */
function responsesRequest(model: string) {
  return {
    model,
    tools: [{ type: 'function', name: 'fetch_report', parameters: fetchReport.input_schema }],
    input: [
      { role: 'user', content: 'Summarize the 2025 report.' },
      { type: 'function_call', call_id: 'call_report', name: 'fetch_report', arguments: '{"year":2025}' },
      {
        type: 'function_call_output',
        call_id: 'call_report',
        output: [{ type: 'input_file', filename: 'report.pdf', file_data: `data:application/pdf;base64,${pdf}` }],
      },
    ],
  };
}

type Turn = { role: string; content: Record<string, unknown>[] };

function lastTurn(requests: { body: unknown }[]): Turn | undefined {
  return (requests.at(-1)?.body as { messages: Turn[] }).messages.at(-1);
}

const anthropicDocument = (title: string) => ({
  type: 'document',
  title,
  source: { type: 'base64', media_type: 'application/pdf', data: pdf },
});

describe('PDFs returned by a tool', () => {
  it('reach Claude inside the tool_result on Anthropic and Vertex, from Messages and from Responses', async () => {
    const hosts = [
      { model: claudeModels.anthropic, fake: fakes.anthropic },
      { model: claudeModels.vertex, fake: fakes.vertex.anthropic },
    ];
    for (const { model, fake } of hosts) {
      fake.enqueue({ type: 'message', content: [{ type: 'text', text: 'Revenue grew.' }] });
      await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, messagesRequest(model), messagesHeaders);
      expect(lastTurn(fake.messageRequests()), model).toEqual({
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_report',
            content: [{ type: 'text', text: 'Fetched.' }, anthropicDocument('annual report.pdf')],
          },
        ],
      });
      fake.enqueue({ type: 'message', content: [{ type: 'text', text: 'Revenue grew.' }] });
      await postForOk(`${fakes.gateway.baseUrl}/v1/responses`, responsesRequest(model));
      expect(lastTurn(fake.messageRequests()), model).toEqual({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'call_report', content: [anthropicDocument('report.pdf')] }],
      });
    }
  });

  it("reach Claude on Bedrock inside the toolResult's content, named as Converse names documents", async () => {
    fakes.bedrock.enqueue({ type: 'message', text: 'Revenue grew.' });
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, messagesRequest(claudeModels.bedrock), messagesHeaders);
    // The SDK writes blob members as base64: the same text means the same bytes.
    expect(lastTurn(fakes.bedrock.requests)).toEqual({
      role: 'user',
      content: [
        {
          toolResult: {
            toolUseId: 'toolu_report',
            content: [{ text: 'Fetched.' }, { document: { format: 'pdf', name: 'annual report', source: { bytes: pdf } } }],
            status: 'success',
          },
        },
      ],
    });
    fakes.bedrock.enqueue({ type: 'message', text: 'Revenue grew.' });
    await postForOk(`${fakes.gateway.baseUrl}/v1/responses`, responsesRequest(claudeModels.bedrock));
    expect(lastTurn(fakes.bedrock.requests)?.content).toEqual([
      {
        toolResult: {
          toolUseId: 'call_report',
          content: [{ document: { format: 'pdf', name: 'report', source: { bytes: pdf } } }],
          status: 'success',
        },
      },
    ]);
  });

  it('get a name Converse takes, one per document, whatever the title says', async () => {
    const request = messagesRequest(claudeModels.bedrock, "John's report #2.pdf");
    // A second call returning a document of the same title: Converse refuses two documents of one name.
    const messages: unknown[] = request.messages;
    messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_again', name: 'fetch_report', input: { year: 2025 } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_again',
            content: [
              { type: 'document', title: "John's report #2.pdf", source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
            ],
          },
        ],
      },
    );
    fakes.bedrock.enqueue({ type: 'message', text: 'Same report.' });
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, request, messagesHeaders);
    const turns = (fakes.bedrock.requests.at(-1)!.body as { messages: Turn[] }).messages;
    const names = turns.flatMap((turn) =>
      turn.content.flatMap((block) =>
        ((block.toolResult as { content: { document?: { name: string } }[] } | undefined)?.content ?? []).flatMap((part) =>
          part.document ? [part.document.name] : [],
        ),
      ),
    );
    expect(names).toEqual(['Johns report 2', 'Johns report 2 (2)']);
  });

  it('past the five Converse takes in a request, the earliest are left out with a line saying so, the latest kept', async () => {
    const request = messagesRequest(claudeModels.bedrock);
    const messages: unknown[] = request.messages;
    for (let call = 2; call <= 6; call++)
      messages.push(
        { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${call}`, name: 'fetch_report', input: { year: 2020 + call } }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: `toolu_${call}`,
              content: [
                { type: 'document', title: `report ${call}.pdf`, source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
              ],
            },
          ],
        },
      );
    fakes.bedrock.enqueue({ type: 'message', text: 'Six reports.' });
    const reply = await postJson(`${fakes.gateway.baseUrl}/v1/messages`, request, messagesHeaders);
    expect(reply.status, reply.text).toBe(200);
    const turns = (fakes.bedrock.requests.at(-1)!.body as { messages: Turn[] }).messages;
    const results = turns.flatMap((turn) =>
      turn.content.flatMap((block) => (block.toolResult as { content: Record<string, unknown>[] } | undefined)?.content ?? []),
    );
    expect(results.filter((part) => part.document)).toHaveLength(5);
    expect(results).toContainEqual({ text: "[The document 'annual report' was left out: at most 5 documents fit in a request.]" });
    expect(reply.text).toContain("the document 'annual report' was left out");
  });

  it('stay out of the tool result of a Bedrock model other than Claude, as before (its PDFs are left out with a warning)', async () => {
    fakes.bedrock.enqueue({ type: 'message', text: 'Revenue grew.' });
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, messagesRequest('bedrock/meta.llama3-1-70b-instruct-v1:0'), messagesHeaders);
    expect(lastTurn(fakes.bedrock.requests)?.content).toEqual([
      { toolResult: { toolUseId: 'toolu_report', content: [{ text: 'Fetched.' }], status: 'success' } },
    ]);
  });
});

/** A user's own PDF, as a Messages client attaches one. */
const q3Report = { type: 'document', title: 'q3.pdf', source: { type: 'base64', media_type: 'application/pdf', data: pdf } };

/** One user turn of `content` to Claude on Bedrock through the Messages API. */
function askBedrock(content: unknown[]): Promise<unknown> {
  return postForOk(
    `${fakes.gateway.baseUrl}/v1/messages`,
    { model: claudeModels.bedrock, max_tokens: 100, messages: [{ role: 'user', content }] },
    messagesHeaders,
  );
}

describe("a user's PDF to Claude on Bedrock", () => {
  it('is a document block of the turn, as Converse takes one', async () => {
    fakes.bedrock.enqueue({ type: 'message', text: 'A report.' });
    await askBedrock([q3Report, { type: 'text', text: 'What is this?' }]);
    expect(lastTurn(fakes.bedrock.requests)?.content).toEqual([
      { document: { format: 'pdf', name: 'q3', source: { bytes: pdf } } },
      { text: 'What is this?' },
    ]);
  });

  it('alone in its turn gets a text block beside it, which Converse requires', async () => {
    fakes.bedrock.enqueue({ type: 'message', text: 'A report.' });
    await askBedrock([q3Report]);
    expect(lastTurn(fakes.bedrock.requests)?.content).toEqual([
      { document: { format: 'pdf', name: 'q3', source: { bytes: pdf } } },
      { text: '(attached: q3)' },
    ]);
  });
});
