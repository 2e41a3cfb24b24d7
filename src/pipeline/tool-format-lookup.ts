/** The tool format of a model's family, or the generic JSON one for a family without its own. */
import { gatewayError } from '../core/gateway-error.js';
import type { ToolFormat } from '../core/tool-format.js';

export class ToolFormatLookup {
  constructor(private readonly formats: ReadonlyMap<string, ToolFormat>) {}

  /** A property made once: the reply stages take the lookup as a function (a closure per request costs under tsx). */
  readonly of = (family: string): ToolFormat => this.formats.get(family) ?? this.formats.get('generic-json') ?? missingFormat(family);
}

function missingFormat(family: string): never {
  throw gatewayError('internal_error', { message: `No tool format is registered for family '${family}'.` });
}
