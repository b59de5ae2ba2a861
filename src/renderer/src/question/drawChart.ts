import type { View } from 'vega'
import { refusingLoader, vegaLiteSpec, type ChartSpec } from '../../../shared/chart'

/** Height of a chart in the answer panel, px; it takes the panel's width. */
export const CHART_HEIGHT = 260

/**
 * Draw a checked chart into an element. The charting library loads on first use (it is large); it runs
 * Vega's expression interpreter instead of generated code, which the page's Content-Security-Policy
 * (no 'unsafe-eval') would refuse anyway, and a loader that loads nothing.
 */
export async function drawChart(element: HTMLElement, spec: ChartSpec, dark: boolean): Promise<View> {
  const [{ default: embed }, { expressionInterpreter }] = await Promise.all([import('vega-embed'), import('vega-interpreter')])
  const full = vegaLiteSpec(spec, { width: 'container', height: CHART_HEIGHT }) as unknown as Parameters<typeof embed>[1]
  const result = await embed(element, full, {
    mode: 'vega-lite',
    renderer: 'svg',
    actions: false,
    ast: true,
    expr: expressionInterpreter,
    loader: refusingLoader(),
    defaultStyle: false,
    ...(dark ? { theme: 'dark' as const } : {})
  })
  return result.view
}
