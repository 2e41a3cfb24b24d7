/** Prompt fidelity: per family, how close the prompt the prompted lane sends is to the model's own chat template. */
// `node --import tsx bench/prompt-fidelity.ts` prints a markdown table (whole prompt, call/result section,
// token-level LCS ratio, see test/helpers/prompt-fidelity/prompt-similarity.ts); `--show NAME` prints the
// two prompts of one template (e.g. `--show "Gemma 4"`) to see where they differ.
import { measurePromptFidelity } from '../test/helpers/prompt-fidelity/measure-prompt-fidelity.js';
import { renderMarkdownTable } from './markdown-table.js';

const results = measurePromptFidelity();
const shown = process.argv.indexOf('--show');
if (shown !== -1) {
  const name = process.argv[shown + 1];
  const result = results.find((entry) => entry.entry.name === name);
  if (result === undefined) throw new Error(`No template named ${name}; known: ${results.map((entry) => entry.entry.name).join(', ')}`);
  process.stdout.write(
    `--- the template over the native conversation\n${result.nativePrompt}\n--- the same template over what the gateway sends\n${result.gatewayPrompt}\n`,
  );
} else {
  const rows = results.map((result) => [
    result.entry.name,
    result.family,
    result.whole.toFixed(2),
    result.callsAndResults.toFixed(2),
    result.entry.source.split('/').at(-1) ?? '',
  ]);
  process.stdout.write(`${renderMarkdownTable(['Model', 'Family', 'Whole prompt', 'Calls and results', 'Template'], rows)}\n`);
  for (const result of results) if (result.entry.note !== undefined) process.stdout.write(`\n${result.entry.name}: ${result.entry.note}.`);
  process.stdout.write('\n');
}
