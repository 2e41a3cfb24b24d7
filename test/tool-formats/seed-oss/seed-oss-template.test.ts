/** Seed-OSS's tool list equals, byte for byte, what the model's own chat template writes (fixture: test/fixtures/seed-oss-rendered-prompts/). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { fidelityTools } from '../../helpers/prompt-fidelity/fidelity-conversation.js';

const native = readFileSync(new URL('../../fixtures/seed-oss-rendered-prompts/system-block.txt', import.meta.url), 'utf8');

/** From the first function to the end of the call format block. */
function functionsAndFormat(prompt: string): string {
  const end = '</seed:tool_call>';
  return prompt.slice(prompt.indexOf('Function:\n'), prompt.indexOf(end) + end.length);
}

describe('seed-oss: the tool list', () => {
  it("writes the functions and the call format as the template does: bare commas, the docstrings' blank line, one newline before the format", () => {
    const prompt = createToolFormatRegistry().get('seed-oss')!.renderTools(fidelityTools, { type: 'auto' });
    expect(functionsAndFormat(native)).toContain('def get_weather(');
    expect(functionsAndFormat(prompt)).toBe(functionsAndFormat(native));
  });
});
