import type { ChartType } from '../../../schema/views';
import type { BucketHead, ChartData } from './aggregate';

/**
 * One panel's ECharts option, built from the aggregated numbers. Pure and free of the chart
 * library (plain objects), so the benchmark renders the same option on the server and a test
 * can read it. Series and data indexes follow the panel's buckets and stacks, which is how a
 * click on a segment is mapped back to its items (segmentOf).
 */

export interface OptionText {
  /** A bucket's words: the option or member name, the month in the user's language, "No value"… */
  label(head: BucketHead): string;
  /** The measure's name on the value axis and in tooltips ("Items" or the summed attribute). */
  measure: string;
}

/** A palette for buckets without a colour of their own, readable on light and dark surfaces. */
export const PALETTE = ['#5B8FF9', '#61DDAA', '#F6BD16', '#7262FD', '#78D3F8', '#9661BC', '#F6903D', '#008685', '#F08BB4', '#65789B'];

export function chartOption(panel: ChartData, type: ChartType, text: OptionText, rtl: boolean): Record<string, unknown> {
  const labels = panel.buckets.map((b) => text.label(b));
  const colorOf = (head: BucketHead, i: number) => head.color ?? PALETTE[i % PALETTE.length]!;
  const base = { animation: false, aria: { enabled: true }, tooltip: { trigger: type === 'pie' || type === 'donut' ? 'item' : 'axis' } };

  if (type === 'pie' || type === 'donut') {
    return {
      ...base,
      legend: { type: 'scroll', bottom: 0, align: rtl ? 'right' : 'left' },
      series: [
        {
          type: 'pie',
          name: text.measure,
          radius: type === 'donut' ? ['45%', '70%'] : '70%',
          center: ['50%', '45%'],
          label: { show: panel.buckets.length <= 12 },
          data: panel.buckets.map((b, i) => ({ name: labels[i], value: b.value, itemStyle: { color: colorOf(b, i) } })),
        },
      ],
    };
  }

  const category = { type: 'category', data: labels, inverse: rtl, axisLabel: { interval: 0, rotate: labels.length > 8 ? 30 : 0, width: 120, overflow: 'truncate' } };
  const value = { type: 'value', name: text.measure, position: rtl ? 'right' : 'left' };
  // ECharts 6 keeps axis labels inside the chart's box by default (grid.outerBoundsMode 'auto').
  const grid = { left: rtl ? 24 : 56, right: rtl ? 56 : 24, top: 40, bottom: labels.length > 8 ? 80 : 48 };

  if (panel.stacks) {
    return {
      ...base,
      legend: { type: 'scroll', top: 0, align: rtl ? 'right' : 'left' },
      grid,
      xAxis: category,
      yAxis: value,
      series: panel.stacks.map((s, i) => ({ type: 'bar', stack: 'total', name: text.label(s), itemStyle: { color: colorOf(s, i) }, data: s.values })),
    };
  }

  return {
    ...base,
    grid,
    xAxis: category,
    yAxis: value,
    series: [
      type === 'line'
        ? { type: 'line', name: text.measure, symbolSize: 10, data: panel.buckets.map((b) => b.value) }
        : { type: 'bar', name: text.measure, data: panel.buckets.map((b, i) => ({ value: b.value, itemStyle: { color: colorOf(b, i) } })) },
    ],
  };
}

export interface Segment {
  /** The bucket's (and, in a stacked bar, the stack's) words, for the list's heading. */
  title: string;
  itemIds: string[];
}

/**
 * The items behind a clicked segment: the bucket at `dataIndex`, within stack `seriesIndex` when
 * stacked (a negative `seriesIndex` means the whole bucket, as the values table asks).
 */
export function segmentOf(panel: ChartData, seriesIndex: number, dataIndex: number, text: OptionText): Segment | null {
  const bucket = panel.buckets[dataIndex];
  if (!bucket) return null;
  if (panel.stacks && seriesIndex >= 0) {
    const stack = panel.stacks[seriesIndex];
    if (!stack) return null;
    return { title: `${text.label(bucket)} · ${text.label(stack)}`, itemIds: stack.itemIds[dataIndex] ?? [] };
  }
  return { title: text.label(bucket), itemIds: bucket.itemIds };
}
