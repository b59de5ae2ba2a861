/**
 * Chart answers as SVG, drawn headless in main for exports: Vega renders SVG in Node without a canvas.
 * The specification is checked again first (a session file can be edited by anyone), expressions run in
 * Vega's interpreter rather than as generated code, and the loader refuses every request.
 */

import * as vega from 'vega'
import { expressionInterpreter } from 'vega-interpreter'
import { compile } from 'vega-lite'
import { checkChartSpec, refusingLoader, vegaLiteSpec } from '../../../shared/chart'
import { fail, ok, type Result } from '../../../shared/result'

/** Size of an exported chart, px. */
export const EXPORT_SIZE = { width: 640, height: 320 } as const

/** The chart of an answer as an SVG document. */
export async function chartSvg(raw: unknown, size: { width: number; height: number } = EXPORT_SIZE): Promise<Result<string>> {
  const checked = checkChartSpec(raw)
  if (!checked.ok) return checked
  let view: vega.View | null = null
  try {
    const compiled = compile(vegaLiteSpec(checked.value, size) as unknown as Parameters<typeof compile>[0]).spec
    const runtime = vega.parse(compiled, undefined, { ast: true })
    view = new vega.View(runtime, { renderer: 'none', loader: refusingLoader(), expr: expressionInterpreter as never })
    return ok(await view.toSVG())
  } catch (error) {
    return fail('bad-chart', 'The chart could not be drawn.', error instanceof Error ? error.message : String(error))
  } finally {
    view?.finalize()
  }
}
