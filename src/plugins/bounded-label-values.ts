/**
 * A metric label whose values a client can choose (the model name, which an openai-compatible provider
 * passes on as given) must not grow Prometheus' series without bound: the first `limit` distinct values
 * are kept, later new ones are counted together under one overflow value.
 */
export const overflowLabelValue = '(other)';

export class BoundedLabelValues {
  private readonly seen = new Set<string>();

  constructor(private readonly limit: number) {}

  /** `value` itself while it is among the first `limit` seen, otherwise the overflow value. */
  label(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.limit) return overflowLabelValue;
    this.seen.add(value);
    return value;
  }
}
