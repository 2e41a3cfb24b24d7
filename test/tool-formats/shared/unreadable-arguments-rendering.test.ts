// A call whose arguments are not a JSON object (cut off at the token limit, broken by a parser upstream) is
// written by every family with what it held: in the prompted lane's history and in agent_format text alike.
import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';

const registry = createToolFormatRegistry();
const held = 'Par';

describe('rendering a call whose arguments are not a JSON object', () => {
  for (const [family, format] of registry) {
    it(`${family} writes the arguments' text, not an empty call`, () => {
      for (const text of [`{"city": "${held}`, `["${held}"]`, held]) {
        expect(format.renderCall({ name: 'get_weather', arguments: text }), text).toContain(held);
      }
    });
  }
});
