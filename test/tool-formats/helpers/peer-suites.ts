/** Shared pieces of the peers' parser suites (vLLM's `tests/tool_parsers/common_tests.py`) for the peer-case tests. */
import type { ToolDefinition } from '../../../src/core/index.js';

/**
 * Tools with these names and no declared parameters. vLLM's suites send no tools (its parsers call
 * whatever is named); here only offered names become calls, so each test offers the names it expects.
 */
export function offeredTools(...names: string[]): ToolDefinition[] {
  return names.map((name) => ({ name, description: name, parameters: { type: 'object', properties: {} } }));
}

/** The arguments of `various_data_types_output` in vLLM's common parser suite: one of each JSON type. */
export const variousDataTypes = {
  string_field: 'hello',
  int_field: 42,
  float_field: 3.14,
  bool_field: true,
  null_field: null,
  array_field: ['a', 'b', 'c'],
  object_field: { nested: 'value' },
  empty_array: [],
  empty_object: {},
};

/** `various_data_types_output` as the suite writes it: the call object indented by two, as one JSON text. */
export const variousDataTypesCall = JSON.stringify({ name: 'test_function', arguments: variousDataTypes }, null, 2);
