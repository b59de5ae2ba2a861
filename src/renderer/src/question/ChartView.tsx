import { useEffect, useMemo, useRef, useState } from 'react'
import type { View } from 'vega'
import { checkAnswerChart, type AnswerChart } from '../../../shared/chart'
import { usePrefersDark } from '../common/usePrefersDark'
import { drawChart } from './drawChart'
import { fileStem, saveFile } from './answerExport'

type Drawn = { phase: 'drawing' } | { phase: 'drawn' } | { phase: 'failed'; message: string }

/** A chart answer, drawn from its checked specification, with PNG and SVG export. */
export function ChartView({ chart, question }: { chart: AnswerChart; question: string }): React.JSX.Element {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<View | null>(null)
  const dark = usePrefersDark()
  // Checked again here: a chart from history may come from an imported session file.
  const checked = useMemo(() => checkAnswerChart(chart), [chart])
  // What became of the last drawing, for the spec and colour scheme it was started with.
  const [settled, setSettled] = useState<{ of: object; dark: boolean; drawn: Drawn } | null>(null)
  const drawn: Drawn = !checked.ok
    ? { phase: 'failed', message: checked.error.message }
    : settled !== null && settled.of === checked && settled.dark === dark
      ? settled.drawn
      : { phase: 'drawing' }

  useEffect(() => {
    const element = host.current
    if (!element || !checked.ok) return
    let live = true
    drawChart(element, checked.value.spec, dark).then(
      (v) => {
        if (!live) return v.finalize()
        view.current = v
        setSettled({ of: checked, dark, drawn: { phase: 'drawn' } })
      },
      (error: unknown) => {
        if (live) setSettled({ of: checked, dark, drawn: { phase: 'failed', message: `The chart could not be drawn: ${String(error)}` } })
      }
    )
    return () => {
      live = false
      view.current?.finalize()
      view.current = null
      element.replaceChildren()
    }
  }, [checked, dark])

  const name = fileStem(question)
  const exportPng = (): void => {
    void view.current?.toImageURL('png', 2).then((url) => saveFile(`${name}.png`, url))
  }
  const exportSvg = (): void => {
    void view.current?.toSVG().then((svg) => saveFile(`${name}.svg`, new Blob([svg], { type: 'image/svg+xml' })))
  }

  return (
    <figure className="answer-chart" aria-label="Answer chart">
      <div className="answer-table-bar">
        <figcaption className="muted small">{chart.summary}</figcaption>
        <span className="spacer" />
        <button type="button" onClick={exportPng} disabled={drawn.phase !== 'drawn'}>
          PNG
        </button>
        <button type="button" onClick={exportSvg} disabled={drawn.phase !== 'drawn'}>
          SVG
        </button>
      </div>
      {drawn.phase === 'failed' && (
        <p className="inline-error" role="alert">
          {drawn.message}
        </p>
      )}
      <div className="chart-host" ref={host} data-testid="answer-chart" data-state={drawn.phase} />
    </figure>
  )
}
