/** The request the real-server tests send: one weather tool, one question that calls for it. */
export const weatherTools = [
  {
    type: 'function' as const,
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  },
];

export const weatherQuestion = [{ role: 'user' as const, content: 'What is the weather in Paris?' }];
