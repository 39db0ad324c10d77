import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

// Only what the Chart view draws (decision 0125): bar, line and pie series, their grid, legend,
// tooltip and the aria description, drawn as SVG (segments are real elements: crisp, and text in
// any script, right to left included, is laid out by the browser).
echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, AriaComponent, SVGRenderer]);

/** The page's colours, so the chart follows the light or dark theme. */
function themeColors() {
  const css = getComputedStyle(document.documentElement);
  const text = css.getPropertyValue('--color-text').trim() || '#1f2330';
  const muted = css.getPropertyValue('--color-text-muted').trim() || '#6e7079';
  const border = css.getPropertyValue('--color-border').trim() || '#e0e2ea';
  return { text, muted, border };
}

function themed(option: Record<string, unknown>): Record<string, unknown> {
  const c = themeColors();
  const axis = { axisLabel: { color: c.muted }, axisLine: { lineStyle: { color: c.border } }, splitLine: { lineStyle: { color: c.border } }, nameTextStyle: { color: c.muted } };
  const merge = (a: unknown) => (a && typeof a === 'object' ? { ...axis, ...(a as object), axisLabel: { ...axis.axisLabel, ...((a as { axisLabel?: object }).axisLabel ?? {}) } } : a);
  return { ...option, textStyle: { color: c.text }, legend: option.legend ? { ...(option.legend as object), textStyle: { color: c.text } } : undefined, xAxis: merge(option.xAxis), yAxis: merge(option.yAxis) };
}

/**
 * One chart panel. A click on a bar, slice or point answers its series and data index (mapped to
 * the items by chart-option.ts segmentOf). Resizes with its box.
 */
export function ChartCanvas({ option, label, onSegment }: { option: Record<string, unknown>; label: string; onSegment(seriesIndex: number, dataIndex: number): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const latest = useRef(onSegment);
  latest.current = onSegment;

  useEffect(() => {
    const element = ref.current!;
    const instance = echarts.init(element, null, { renderer: 'svg' });
    chart.current = instance;
    instance.on('click', (params) => latest.current(params.seriesIndex ?? 0, params.dataIndex ?? 0));
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(themed(option), { notMerge: true });
  }, [option]);

  return <div ref={ref} className="chart-canvas" role="img" aria-label={label} data-testid="chart-canvas" />;
}
