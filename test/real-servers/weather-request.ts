/** The request the real-server tests send: one weather tool, one question that calls for it. */
import type OpenAI from 'openai';

export const weatherTools = [
  {
    type: 'function' as const,
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  },
];

export const weatherQuestion = [{ role: 'user' as const, content: 'What is the weather in Paris?' }];

/** Sends the weather request through the Chat Completions client: the lane the gateway says it took, and the call that came back. */
export async function askForWeather(gateway: { client(): OpenAI }, model: string) {
  const reply = await gateway.client().chat.completions.create({ model, messages: weatherQuestion, tools: weatherTools }).withResponse();
  const call = reply.data.choices[0]?.message.tool_calls?.[0];
  return {
    lane: reply.response.headers.get('x-tool-calling'),
    call: call?.type === 'function' ? { name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown } : undefined,
  };
}
