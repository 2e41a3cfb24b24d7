/**
 * Shared set-up for the /v1/messages tests: the gateway in front of fake Anthropic, OpenAI-compatible
 * and Ollama upstreams, raw POSTs, and a reader that checks every SSE frame is `event: T` + `data: {"type":T,…}`.
 */
import { afterAll, beforeAll } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { startFakeOllamaUpstream, type FakeOllamaUpstream } from '../../helpers/fake-ollama-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

export type MessagesKit = {
  gateway: StartedGateway;
  anthropic: FakeAnthropicUpstream;
  openai: FakeOpenAiUpstream;
  ollama: FakeOllamaUpstream;
  close(): Promise<void>;
};

/** Provider names, i.e. model prefixes. */
export const providers = { anthropic: 'claude', openai: 'local', ollama: 'home' } as const;

export async function startMessagesKit(server: Record<string, unknown> = {}): Promise<MessagesKit> {
  const [anthropic, openai, ollama] = await Promise.all([
    startFakeAnthropicUpstream(),
    startFakeOpenAiUpstream(),
    startFakeOllamaUpstream(),
  ]);
  const gateway = await startGateway({
    server,
    providers: {
      [providers.anthropic]: testProvider('anthropic', anthropic.url, { apiKey: 'upstream-key' }),
      [providers.openai]: testProvider('openai-compatible', `${openai.url}/v1`, { toolCalling: 'native' }),
      [providers.ollama]: testProvider('ollama', ollama.url, { toolCalling: 'native' }),
    },
  });
  return {
    gateway,
    anthropic,
    openai,
    ollama,
    close: async () => {
      await gateway.close();
      await Promise.all([anthropic.close(), openai.close(), ollama.close()]);
    },
  };
}

/** Starts the kit before the file's tests and closes it after them; read `kit` and `url` (the Messages URL) inside tests. */
export function useMessagesKit(): { readonly kit: MessagesKit; readonly url: string } {
  let started: MessagesKit | undefined;
  beforeAll(async () => {
    started = await startMessagesKit();
  });
  afterAll(async () => {
    await started?.close();
  });
  const kit = (): MessagesKit => {
    if (started === undefined) throw new Error('the kit starts in beforeAll');
    return started;
  };
  return {
    get kit() {
      return kit();
    },
    get url() {
      return `${kit().gateway.baseUrl}/v1/messages?beta=true`;
    },
  };
}

export type RawResponse = { status: number; headers: Headers; text: string };

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export type WireEvent = Record<string, unknown> & { type: string };

/** Every frame of an Anthropic SSE body, checked: an `event:` line whose name equals the JSON's `type`. */
export function anthropicEvents(text: string): WireEvent[] {
  if (!text.endsWith('\n\n')) throw new Error(`SSE body does not end with a blank line: ${JSON.stringify(text.slice(-80))}`);
  return text
    .split('\n\n')
    .slice(0, -1)
    .map((frame) => {
      const match = /^event: ([a-z_]+)\ndata: (.*)$/.exec(frame);
      if (!match) throw new Error(`not an event + data frame: ${JSON.stringify(frame)}`);
      const event = JSON.parse(match[2] as string) as WireEvent;
      if (event.type !== match[1]) throw new Error(`event line '${match[1]}' but data type '${event.type}'`);
      return event;
    });
}

/**
 * The stream as a compact sequence (`content_block_delta` shows its delta type), which reads like
 * Anthropic's documentation of the flow.
 */
export function eventSequence(events: WireEvent[]): string[] {
  return events.map((event) => {
    if (event.type === 'content_block_start') return `start ${String((event.content_block as WireEvent).type)} #${String(event.index)}`;
    if (event.type === 'content_block_delta') return `${String((event.delta as WireEvent).type)} #${String(event.index)}`;
    if (event.type === 'content_block_stop') return `stop #${String(event.index)}`;
    return event.type;
  });
}

/**
 * What an Anthropic SDK builds from the stream: the content array, with tool inputs parsed from
 * the concatenated `partial_json` fragments at `content_block_stop`, plus the final stop reason.
 */
export function accumulate(events: WireEvent[]): {
  content: Record<string, unknown>[];
  stopReason: unknown;
  usage: unknown;
  diagnostics: unknown;
} {
  const content: Record<string, unknown>[] = [];
  const json = new Map<number, string>();
  let stopReason: unknown;
  let usage: unknown;
  let diagnostics: unknown;
  for (const event of events) {
    const index = event.index as number;
    if (event.type === 'content_block_start') {
      if (index !== content.length) throw new Error(`block index ${index} is not the next position ${content.length}`);
      content.push({ ...(event.content_block as object) });
    } else if (event.type === 'content_block_delta') {
      type Texts = { type: string; text: string; thinking: string; signature: string; partial_json: string };
      const block = content[index] as Texts;
      const delta = event.delta as Texts;
      if (delta.type === 'text_delta') block.text += delta.text;
      else if (delta.type === 'thinking_delta') block.thinking += delta.thinking;
      else if (delta.type === 'signature_delta') block.signature += delta.signature;
      else if (delta.type === 'input_json_delta') json.set(index, (json.get(index) ?? '') + delta.partial_json);
    } else if (event.type === 'content_block_stop') {
      const block = content[index] as Record<string, unknown>;
      if (block.type === 'tool_use') block.input = JSON.parse(json.get(index) || '{}');
    } else if (event.type === 'message_delta') {
      stopReason = (event.delta as Record<string, unknown>).stop_reason;
      usage = event.usage;
      diagnostics = event.diagnostics;
    }
  }
  return { content, stopReason, usage, diagnostics };
}

/** The smallest valid Messages body. */
export function messagesBody(model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model, max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }], ...extra };
}
