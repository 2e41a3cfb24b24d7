/** A MuseGlimmer tool message: `RECIPIENT<|message|><atem:function_calls><atem:invoke name="F">…</atem:invoke></atem:function_calls>`. */
// The message header is Harmony's (`<|start|>assistant to=RECIPIENT<|message|>`), so the message is
// scanned as Harmony's are; its content is ATEM markup, invokes of `<atem:parameter name="K">V` values
// (each value typed by the tool's schema, else read as JSON when it is JSON, as vLLM's parser does). The
// invoke's name is the call's; the shipped template makes a bare tool name's recipient `NAME.*`, so a
// doubled `NAME.NAME` is read as `NAME` when only that is offered.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/frontend/processing/tool_parsers/muse_glimmer_tool_parser.py
// @see https://github.com/ggml-org/llama.cpp/blob/master/common/parsers/muse-glimmer.cpp
import type { BodyGrammar } from '../shared/body-grammar.js';
import { invokeParametersGrammar } from '../shared/invoke-parameters-grammar.js';
import type { ToolRoster } from '../shared/tool-roster.js';

export const atemSectionOpen = '<atem:function_calls>';
export const atemSectionClose = '</atem:function_calls>';
export const atemInvokeOpen = '<atem:invoke';
export const atemInvokeClose = '</atem:invoke>';
export const atemParameterOpen = '<atem:parameter';
export const atemParameterClose = '</atem:parameter>';

const atemInvokeGrammar = invokeParametersGrammar({
  id: 'muse-glimmer-atem',
  invokeOpen: atemInvokeOpen,
  invokeClose: atemInvokeClose,
  parameterOpen: atemParameterOpen,
  parameterClose: atemParameterClose,
});

/** The recipient, the header's end, and the ATEM section that follows it. */
const messageHead = /^[^\s<]+<\|message\|>\s*<atem:function_calls>/;

export const atemMessageGrammar: BodyGrammar = {
  id: 'muse-glimmer-atem-message',
  accepts: (body) => messageHead.test(body),
  decode(body, context) {
    const head = messageHead.exec(body)?.[0] ?? '';
    const sectionEnd = body.indexOf(atemSectionClose, head.length);
    // Names are settled before reading, so that values are typed with the offered tool's schema.
    const section = body
      .slice(head.length, sectionEnd < 0 ? body.length : sectionEnd)
      .trim()
      .replace(invokeName, (_tag, name: string) => `${atemInvokeOpen} name="${offeredName(name, context.roster)}"`);
    return atemInvokeGrammar.decode(section, { ...context, framing: sectionEnd < 0 ? context.framing : 'closed' });
  },
};

const invokeName = /<atem:invoke name="([^"<>]*)"/g;

function offeredName(name: string, roster: ToolRoster): string {
  const [head, tail, ...rest] = name.split('.');
  const doubled = rest.length === 0 && head !== undefined && head === tail;
  return doubled && roster.resolve(name) === undefined && roster.resolve(head) !== undefined ? head : name;
}
