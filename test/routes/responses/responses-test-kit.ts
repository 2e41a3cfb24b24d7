/**
 * Shared setup for the Responses route tests: a gateway in front of scripted fake OpenAI-compatible
 * upstreams (native and prompted lanes), a raw SSE reader, and checks against the official schemas
 * (a fixture copied from OpenAI's OpenAPI document, since tests must not read outside the repo).
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type OpenAI from 'openai';
import { afterAll, beforeAll, expect } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

export type ResponsesHarness = {
  gateway: StartedGateway;
  /** Behind provider `local` (native tool calling). */
  upstream: FakeOpenAiUpstream;
  /** Behind provider `prompted` (tools written into the prompt, Hermes syntax for Qwen). */
  promptedUpstream: FakeOpenAiUpstream;
  close(): Promise<void>;
};

export const nativeModel = 'local/gpt-fake-1';
export const promptedModel = 'prompted/Qwen/Qwen3-8B';

/** `state`: the config's `state` section (a Redis URL), absent for in-process state. */
export async function startResponsesHarness(state?: Record<string, unknown>): Promise<ResponsesHarness> {
  const upstream = await startFakeOpenAiUpstream();
  const promptedUpstream = await startFakeOpenAiUpstream();
  const gateway = await startGateway({
    providers: {
      local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
      prompted: testProvider('openai-compatible', `${promptedUpstream.url}/v1`, { toolCalling: 'prompted' }),
    },
    ...(state ? { state } : {}),
  });
  return {
    gateway,
    upstream,
    promptedUpstream,
    close: async () => {
      await gateway.close();
      await Promise.all([upstream.close(), promptedUpstream.close()]);
    },
  };
}

/**
 * Starts the harness before the file's tests and closes it after them; read `harness` and `client` inside tests.
 * `stateSettings` is read when the harness starts (after earlier beforeAll hooks, such as one starting Redis).
 */
export function useResponsesHarness(stateSettings?: () => Record<string, unknown>): {
  readonly harness: ResponsesHarness;
  readonly client: OpenAI;
} {
  const state: { harness?: ResponsesHarness; client?: OpenAI } = {};
  beforeAll(async () => {
    state.harness = await startResponsesHarness(stateSettings?.());
    state.client = state.harness.gateway.client();
  });
  afterAll(async () => {
    await state.harness?.close();
  });
  return {
    get harness() {
      if (!state.harness) throw new Error('the harness starts in beforeAll');
      return state.harness;
    },
    get client() {
      if (!state.client) throw new Error('the harness starts in beforeAll');
      return state.client;
    },
  };
}

export type RawSseEvent = { event: string | undefined; data: Record<string, unknown> & { type: string } };

export type RawSseResult = { status: number; headers: Headers; text: string; events: RawSseEvent[] };

/** POSTs a body and reads the reply as SSE frames (for assertions on the wire itself). */
export async function postRawSse(baseUrl: string, body: Record<string, unknown>, path = '/v1/responses'): Promise<RawSseResult> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  const text = await response.text();
  const events: RawSseEvent[] = [];
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    for (const frame of text.split('\n\n')) {
      if (frame.trim() === '') continue;
      const lines = frame.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n');
      events.push({ event, data: JSON.parse(data) as RawSseEvent['data'] });
    }
  }
  return { status: response.status, headers: response.headers, text, events };
}

const fixture = JSON.parse(readFileSync(new URL('./fixtures/openai-responses-schemas.json', import.meta.url), 'utf8')) as {
  components: { schemas: Record<string, { anyOf?: { $ref: string }[]; properties?: { type?: { enum?: string[] } } }> };
};
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: 'openai', components: fixture.components });

function schemaErrors(name: string, value: unknown): string[] {
  const validate = ajv.getSchema(`openai#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name} in the fixture`);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}

/** Event type → the name of its schema among `ResponseStreamEvent`'s members. */
const eventSchemas = new Map(
  (fixture.components.schemas.ResponseStreamEvent?.anyOf ?? []).flatMap(({ $ref }) => {
    const name = $ref.split('/').at(-1) ?? '';
    const type = fixture.components.schemas[name]?.properties?.type?.enum?.[0];
    return type ? [[type, name] as const] : [];
  }),
);

/** Checks a Response object against the official `Response` schema (the `diagnostics` extension is allowed). */
export function expectValidResponseObject(response: unknown): void {
  expect(schemaErrors('Response', response), JSON.stringify(response).slice(0, 300)).toEqual([]);
}

/** Event names match data types, sequence numbers count from 0, each event matches its schema, no [DONE]. */
export function expectWellFormedStream(result: RawSseResult): void {
  expect(result.text).not.toContain('[DONE]');
  expect(result.events.length).toBeGreaterThan(0);
  result.events.forEach(({ event, data }, position) => {
    expect(event).toBe(data.type);
    expect(data.sequence_number).toBe(position);
    const schema = eventSchemas.get(data.type);
    expect(schema, `unexpected event type ${data.type}`).toBeDefined();
    expect(schemaErrors(schema ?? '', data), `${data.type}: ${JSON.stringify(data).slice(0, 300)}`).toEqual([]);
  });
  expect(result.events[0]?.data.type).toBe('response.created');
  expect(result.events[1]?.data.type).toBe('response.in_progress');
  expect(['response.completed', 'response.incomplete', 'response.failed']).toContain(result.events.at(-1)?.data.type);
}

export function eventTypes(result: RawSseResult): string[] {
  return result.events.map(({ data }) => data.type);
}
