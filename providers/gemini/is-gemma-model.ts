/** Gemma models served by the Gemini API: no function calling, and no `systemInstruction` ("Developer instruction is not enabled"). */
const gemmaName = /(?:^|[/_\-.])gemma/i;

export function isGemmaModel(model: string): boolean {
  return gemmaName.test(model);
}
