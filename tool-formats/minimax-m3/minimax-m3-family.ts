/** The minimax-m3 family (MiniMax-M3): `]<]minimax[>[<tool_call>` sections of invokes whose arguments are XML elements. */
// Read: one section holding one or more `NS<invoke name="F">` blocks, every structural tag after the
// `]<]minimax[>[` namespace token (NS), each argument an element named after it, nested for objects and
// arrays (`m3-invoke-grammar.ts`), typed by the tool's schema; `<mm:think>` reasoning, which a turn
// without reasoning closes right away (a bare `</mm:think>`, dropped as an orphan close).
// Written: the layout llama.cpp's grammar reads (the template's `to_xml` expansion): an element per
// argument on its own line, objects and arrays expanded, empty ones and other scalars as JSON. The
// wording is MiniMax-M2's template's, with M3's tags (the M3 template was not available to read).
// @see https://github.com/ggml-org/llama.cpp/blob/master/common/parsers/minimax-m3.cpp
import type { ToolCallPart } from '../../src/core/index.js';
import { minimaxM2Family } from '../minimax-m2/minimax-m2-family.js';
import { isPlainObject } from '../shared/call-arguments.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsAsMembers, formatJson } from '../shared/format-json.js';
import { resultText } from '../shared/tool-result-text.js';
import {
  m3InvokeClose,
  m3InvokeGrammar,
  m3InvokeOpen,
  m3ItemTag,
  m3Namespace,
  m3SectionClose,
  m3SectionOpen,
} from './m3-invoke-grammar.js';
import { createM3SectionScanner } from './m3-section-scanner.js';

const family = 'minimax-m3';

/** One value as the template's `to_xml` writes it: strings as they are, objects and arrays as elements. */
function renderValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length > 0) return value.map((item) => renderElement(m3ItemTag, item)).join('');
  if (isPlainObject(value) && Object.keys(value).length > 0)
    return Object.entries(value)
      .map(([key, member]) => renderElement(key, member))
      .join('');
  return formatJson(value);
}

function renderElement(key: string, value: unknown): string {
  return `${m3Namespace}<${key}>${renderValue(value)}${m3Namespace}</${key}>`;
}

function renderInvoke(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  const entries = Object.entries(argumentsAsMembers(call.arguments));
  return [`${m3InvokeOpen}"${call.name}">`, ...entries.map(([key, member]) => renderElement(key, member)), m3InvokeClose].join('\n');
}

function renderSection(calls: readonly Pick<ToolCallPart, 'name' | 'arguments'>[]): string {
  return [m3SectionOpen, ...calls.map(renderInvoke), m3SectionClose].join('\n');
}

export const minimaxM3Family: FamilySpec = {
  family,
  envelopes: [
    {
      family,
      start: [m3SectionOpen],
      end: [m3SectionClose],
      kind: 'explicit',
      // A value may quote M3's own markup; only the section close outside every argument ends it.
      body: { type: 'custom', createScanner: createM3SectionScanner },
      grammars: [m3InvokeGrammar],
    },
  ],
  reasoningTags: [{ open: '<mm:think>', close: '</mm:think>' }],
  prompt: {
    introduction: minimaxM2Family.prompt.introduction,
    renderToolList: minimaxM2Family.prompt.renderToolList,
    callInstructions: [
      'When making tool calls, use XML format to invoke tools and pass parameters, every tag after the ]<]minimax[>[ token:',
      m3SectionOpen,
      `${m3InvokeOpen}"tool-name-1">`,
      `${m3Namespace}<param-key-1>param-value-1${m3Namespace}</param-key-1>`,
      `${m3Namespace}<param-key-2>${m3Namespace}<member-key>member-value${m3Namespace}</member-key>${m3Namespace}</param-key-2>`,
      `${m3Namespace}<param-key-3>${m3Namespace}<item>item-value${m3Namespace}</item>${m3Namespace}</param-key-3>`,
      m3InvokeClose,
      m3SectionClose,
      'Write string values as they are, without quotes or escaping; write objects as one element per member and arrays as one <item> element per item; write numbers and booleans as JSON. Put several invokes in one block to call several tools.',
    ].join('\n'),
    resultInstructions: minimaxM2Family.prompt.resultInstructions,
  },
  renderCall: (call) => renderSection([call]),
  renderCalls: renderSection,
  renderResults: (results) => results.map((result) => `<response>${resultText(result)}</response>`).join('\n'),
};
