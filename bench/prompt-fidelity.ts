/** Prompt fidelity: per family, how close the prompt the prompted lane sends is to the model's own chat template. */
// `npm run bench:prompt-fidelity` prints a markdown table (whole prompt, call/result section, token-level
// LCS ratio, see test/helpers/prompt-fidelity/prompt-similarity.ts) for the templates the tokenizer packages
// ship; `-- --templates DIR` adds the templates found in DIR under llama.cpp's file names (a checkout of
// llama.cpp's models/templates/); the others are listed as not measured. DeepSeek V4, which ships no
// template, is measured against a port of its Python encoder (test/helpers/prompt-fidelity/deepseek-v4-encoding.ts). `--show NAME` prints the two
// prompts of one template (e.g. `--show "Gemma 4"`) to see where they differ.
import { loadChatTemplates, templateOriginName } from '../test/helpers/prompt-fidelity/chat-template-catalogue.js';
import { measurePromptFidelity } from '../test/helpers/prompt-fidelity/measure-prompt-fidelity.js';
import { renderMarkdownTable } from './markdown-table.js';

const templatesOption = process.argv.indexOf('--templates');
const templatesDirectory = templatesOption === -1 ? undefined : process.argv[templatesOption + 1];
if (templatesOption !== -1 && templatesDirectory === undefined) throw new Error('--templates needs a directory');
const templates = loadChatTemplates(templatesDirectory);
const results = measurePromptFidelity(templates.entries);
const shown = process.argv.indexOf('--show');
if (shown !== -1) {
  const name = process.argv[shown + 1];
  const result = results.find((entry) => entry.entry.name === name);
  if (result === undefined)
    throw new Error(`No template measured named ${name}; measured: ${results.map((entry) => entry.entry.name).join(', ')}`);
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
  if (templates.notSupplied.length > 0) {
    process.stdout.write(
      `\n\nNot measured (template not supplied${templatesDirectory === undefined ? '; pass --templates DIR' : ` in ${templatesDirectory}`}):\n`,
    );
    for (const spec of templates.notSupplied) process.stdout.write(`- ${spec.name} (${templateOriginName(spec)})\n`);
  } else process.stdout.write('\n');
}
