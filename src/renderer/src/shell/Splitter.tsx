import { useRef } from 'react'
import type { Panel } from './usePanel'

type Props = {
  panel: Panel
  /** The panel lies right of (vertical splitter) or below (horizontal splitter) the handle. */
  orientation: 'vertical' | 'horizontal'
  /** Id of the panel element it resizes. */
  controls: string
  label: string
}

const STEP = 16

/**
 * The handle between the grid and a panel: drag it, or focus it and use the arrow keys (Shift for bigger
 * steps, Home/End for the limits); a double-click gives the panel its default size.
 */
export function Splitter({ panel, orientation, controls, label }: Props): React.JSX.Element {
  const start = useRef<{ at: number; size: number } | null>(null)
  const vertical = orientation === 'vertical'
  // Dragging towards the panel makes it smaller: it sits right of / below the handle.
  const delta = (event: React.PointerEvent): number => (vertical ? event.clientX : event.clientY) - (start.current?.at ?? 0)

  return (
    <div
      role="separator"
      tabIndex={0}
      aria-orientation={orientation}
      aria-controls={controls}
      aria-label={label}
      aria-valuenow={panel.size}
      aria-valuemin={panel.spec.min}
      aria-valuemax={panel.spec.max}
      className={`splitter splitter-${orientation}`}
      onPointerDown={(event) => {
        if (event.button !== 0) return
        event.currentTarget.setPointerCapture(event.pointerId)
        start.current = { at: vertical ? event.clientX : event.clientY, size: panel.size }
        event.preventDefault()
      }}
      onPointerMove={(event) => {
        if (start.current) panel.resize(start.current.size - delta(event))
      }}
      onPointerUp={(event) => {
        start.current = null
        event.currentTarget.releasePointerCapture(event.pointerId)
      }}
      onDoubleClick={() => panel.resize(panel.spec.size)}
      onKeyDown={(event) => {
        const step = event.shiftKey ? STEP * 4 : STEP
        const grow = vertical ? 'ArrowLeft' : 'ArrowUp'
        const shrink = vertical ? 'ArrowRight' : 'ArrowDown'
        if (event.key === grow) panel.resize(panel.size + step)
        else if (event.key === shrink) panel.resize(panel.size - step)
        else if (event.key === 'Home') panel.resize(panel.spec.min)
        else if (event.key === 'End') panel.resize(panel.spec.max)
        else return
        event.preventDefault()
      }}
    />
  )
}
