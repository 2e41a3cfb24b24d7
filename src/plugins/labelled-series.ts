/**
 * Prometheus counters and histograms whose labelled series are found by their label values, one map
 * per label, instead of prom-client's way: a label object built, validated and hashed into a string
 * key on every observation (about 7 µs of a request's CPU with five labels).
 */
import type { Metric, Registry } from 'prom-client';

/** A label's value: numbers (a status) are kept as map keys as they are and written as text. */
export type LabelValue = string | number;

type SeriesLabels = Record<string, string>;

/** What prom-client's registry reads of a metric to write it out (Registry.getMetricsAsString). */
type ExportedValue = { labels: SeriesLabels; value: number; metricName?: string };
type ExportedMetric = { name: string; help: string; type: 'counter' | 'histogram'; values: ExportedValue[]; aggregator: 'sum' };

export type SeriesOptions = { name: string; help: string; labelNames: readonly string[] };

/**
 * The series of one metric, a map per label down to the series. `find` takes the values in the
 * order of the label names, as separate arguments: no array or object is made to look one up.
 */
abstract class LabelledSeries<Series extends { labels: SeriesLabels }> {
  readonly name: string;
  readonly help: string;
  protected readonly labelNames: readonly string[];
  private readonly root = new Map<LabelValue, unknown>();
  protected readonly all: Series[] = [];

  constructor(options: SeriesOptions, registry: Registry) {
    if (options.labelNames.length === 0 || options.labelNames.length > 5) throw new Error('a labelled series has one to five labels');
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    // prom-client's registry reads a metric's name, type and get() and nothing else; its type names only its own classes.
    registry.registerMetric(this as unknown as Metric);
  }

  protected abstract createSeries(labels: SeriesLabels): Series;

  protected find(first: LabelValue, second?: LabelValue, third?: LabelValue, fourth?: LabelValue, fifth?: LabelValue): Series {
    const last = this.labelNames.length - 1;
    let level = this.root;
    for (let index = 0; index < last; index++) {
      const value = valueAt(index, first, second, third, fourth, fifth);
      let next = level.get(value) as Map<LabelValue, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(value, next);
      }
      level = next;
    }
    const value = valueAt(last, first, second, third, fourth, fifth);
    const found = level.get(value) as Series | undefined;
    if (found !== undefined) return found;
    const labels: SeriesLabels = {};
    for (const [index, name] of this.labelNames.entries()) labels[name] = String(valueAt(index, first, second, third, fourth, fifth));
    const series = this.createSeries(labels);
    level.set(value, series);
    this.all.push(series);
    return series;
  }
}

function valueAt(
  index: number,
  first: LabelValue,
  second?: LabelValue,
  third?: LabelValue,
  fourth?: LabelValue,
  fifth?: LabelValue,
): LabelValue {
  const value = index === 0 ? first : index === 1 ? second : index === 2 ? third : index === 3 ? fourth : fifth;
  if (value === undefined) throw new Error('a label value is missing');
  return value;
}

type CounterSeries = { labels: SeriesLabels; value: number };

export class SeriesCounter extends LabelledSeries<CounterSeries> {
  readonly type = 'counter';

  protected createSeries(labels: SeriesLabels): CounterSeries {
    return { labels, value: 0 };
  }

  inc(amount: number, first: LabelValue, second?: LabelValue, third?: LabelValue, fourth?: LabelValue, fifth?: LabelValue): void {
    if (!(amount >= 0) || !Number.isFinite(amount)) throw new TypeError(`a counter only goes up by a finite amount, not ${amount}`);
    this.find(first, second, third, fourth, fifth).value += amount;
  }

  async get(): Promise<ExportedMetric> {
    const values = this.all.map((series) => ({ labels: series.labels, value: series.value }));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' };
  }
}

/** Counts per bucket (not cumulative: the last is above every bound), summed up when scraped. */
type HistogramSeries = { labels: SeriesLabels; counts: number[]; sum: number; count: number };

export class SeriesHistogram extends LabelledSeries<HistogramSeries> {
  readonly type = 'histogram';
  private readonly bounds: readonly number[];

  constructor(options: SeriesOptions & { buckets: readonly number[] }, registry: Registry) {
    super(options, registry);
    this.bounds = [...options.buckets].sort((left, right) => left - right);
  }

  protected createSeries(labels: SeriesLabels): HistogramSeries {
    return { labels, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
  }

  observe(value: number, first: LabelValue, second?: LabelValue, third?: LabelValue, fourth?: LabelValue, fifth?: LabelValue): void {
    if (!Number.isFinite(value)) throw new TypeError(`a histogram observes finite values, not ${value}`);
    const series = this.find(first, second, third, fourth, fifth);
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += value;
    series.count++;
  }

  async get(): Promise<ExportedMetric> {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const series of this.all) {
      let cumulative = 0;
      for (const [index, bound] of this.bounds.entries()) {
        cumulative += series.counts[index]!;
        values.push({ labels: { le: String(bound), ...series.labels }, value: cumulative, metricName: bucketName });
      }
      values.push({ labels: { le: '+Inf', ...series.labels }, value: series.count, metricName: bucketName });
      values.push({ labels: series.labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: series.labels, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' };
  }
}

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
