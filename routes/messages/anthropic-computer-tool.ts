/**
 * Anthropic's computer use tool for models other than Claude: the input each version takes, as the tool's
 * reference documents it (https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool:
 * `computer_20241022` with Claude 3.5 Sonnet (new), `computer_20250124` adding hold_key, the mouse button
 * and triple-click actions, scroll and wait, `computer_20251124` adding zoom), the same inputs Vercel's
 * @ai-sdk/anthropic declares for them (packages/anthropic/src/tool/computer_*.ts). The display the client
 * declares (`display_width_px`, `display_height_px`, required by Anthropic's API) goes into the description,
 * since another model has no other way to learn the screen's size.
 */
import { invalidRequest } from '../../src/core/gateway-error.js';
import type { ToolDefinition } from '../../src/core/tool-definition.js';

type Version = { actions: string[]; properties: Record<string, unknown> };

const point = (description: string) => ({
  type: 'array',
  items: { type: 'integer' },
  minItems: 2,
  maxItems: 2,
  description,
});

const firstActions = [
  'key',
  'type',
  'mouse_move',
  'left_click',
  'left_click_drag',
  'right_click',
  'middle_click',
  'double_click',
  'screenshot',
  'cursor_position',
];
const firstProperties = {
  coordinate: point('[x, y] in pixels from the top left corner: where mouse_move moves to, where left_click_drag ends.'),
  text: {
    type: 'string',
    description: 'For type: the text to type. For key: the key or combination, in xdotool syntax ("Return", "ctrl+s").',
  },
};

const secondActions = [...firstActions, 'hold_key', 'left_mouse_down', 'left_mouse_up', 'triple_click', 'scroll', 'wait'];
const secondProperties = {
  ...firstProperties,
  coordinate: point('[x, y] in pixels from the top left corner: where to move, click or scroll, or where a drag ends.'),
  text: {
    type: 'string',
    description:
      'For type: the text to type. For key and hold_key: the key or combination, in xdotool syntax ("Return", "ctrl+s"). ' +
      'For a click or scroll: keys to hold down meanwhile.',
  },
  start_coordinate: point('For left_click_drag: [x, y] where the drag starts.'),
  scroll_direction: { type: 'string', enum: ['up', 'down', 'left', 'right'], description: 'For scroll: which way to scroll.' },
  scroll_amount: { type: 'integer', minimum: 0, description: 'For scroll: how many clicks of the scroll wheel.' },
  duration: { type: 'number', minimum: 0, description: 'For hold_key and wait: how long, in seconds.' },
};

const versions: ReadonlyMap<string, Version> = new Map([
  ['computer_20241022', { actions: firstActions, properties: firstProperties }],
  ['computer_20250124', { actions: secondActions, properties: secondProperties }],
  [
    'computer_20251124',
    {
      actions: [...secondActions, 'zoom'],
      properties: {
        ...secondProperties,
        region: {
          type: 'array',
          items: { type: 'integer' },
          minItems: 4,
          maxItems: 4,
          description: 'For zoom: [x1, y1, x2, y2], the top left and bottom right corners of the region to view at full resolution.',
        },
      },
    },
  ],
]);

function displaySize(definition: Record<string, unknown>, param: string): { width: number; height: number } {
  const size = (field: string): number => {
    const value = definition[field];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
      throw invalidRequest(
        `'${param}.${field}' is required by the computer use tool: the display's size in pixels, a positive integer.`,
        `${param}.${field}`,
      );
    return value;
  };
  return { width: size('display_width_px'), height: size('display_height_px') };
}

/** The custom tool a computer use tool stands for; `definition` is the client's, `param` where it is in the request. */
export function computerTool(type: string, definition: Record<string, unknown>, param: string): Omit<ToolDefinition, 'name'> | undefined {
  const version = versions.get(type);
  if (!version) return undefined;
  const { width, height } = displaySize(definition, param);
  return {
    description:
      `Control a computer's screen, mouse and keyboard. The display is ${width}x${height} pixels. ` +
      'Take a screenshot to see the screen, then move, click, type, press keys' +
      (version.actions.includes('scroll') ? ', scroll' : '') +
      '; take another screenshot to check the result.',
    parameters: {
      type: 'object',
      properties: { action: { type: 'string', enum: version.actions, description: 'The action to perform.' }, ...version.properties },
      required: ['action'],
    },
  };
}
