import { useMemo, useState } from 'react'
import { withRowMove, type RowMove } from '../../../shared/corrections'
import type { HeaderNode } from '../../../shared/table'
import { choiceText, moveProblem, parentChoices, pathText, rowAt } from './moves'

type Props = {
  /** The left tree as shown (moves applied). */
  root: HeaderNode
  /** The selected left-tree node's path. */
  path: readonly string[]
  moves: readonly RowMove[]
  /** Structure again with these moves; `row` is the row to keep selected. */
  onMoves: (moves: RowMove[], row: number) => void
}

// A picker of thousands of rows is not read; the search narrows it.
const CHOICES_SHOWN = 300

/** Move the selected body row (and the rows nested under it) under another row above it, or to the top level. */
export function RowMoveControls({ root, path, moves, onMoves }: Props): React.JSX.Element | null {
  const row = useMemo(() => rowAt(root, path), [root, path])
  const choices = useMemo(() => (row === null ? [] : parentChoices(root, row.row)), [root, row])
  const [picking, setPicking] = useState(false)
  const [query, setQuery] = useState('')
  const [picked, setPicked] = useState<number | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  if (row === null) return null

  const own = moves.find((m) => m.row === row.row)
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  const shown = choices.filter((c) => words.every((w) => pathText(c.path).toLowerCase().includes(w)))
  // The nearest rows above come first: a row usually goes under one close to it.
  const listed = shown.slice(-CHOICES_SHOWN).reverse()

  const apply = (move: RowMove): void => {
    setPicking(false)
    setProblem(null)
    onMoves(withRowMove(moves, row.row, move), row.row)
  }

  const moveUnder = (): void => {
    const choice = choices.find((c) => c.row === picked)
    if (choice === undefined) return setProblem('Choose the row to move it under.')
    const why = moveProblem(row, choice)
    if (why !== null) return setProblem(why)
    if (choice.current) return setProblem(`'${row.label}' is under '${choice.label}' already.`)
    apply({ row: row.row, label: row.label, under: choice.row, underLabel: choice.label })
  }

  return (
    <section className="row-move" aria-label="Move the selected row" data-testid="row-move">
      <p className="hint">
        Sheet row {row.row + 1} ‘{row.label === '' ? '(blank)' : row.label}’{' '}
        {own ? (own.under === null ? '— placed by you at the top level' : `— placed by you under ‘${own.underLabel}’`) : ''}
      </p>
      <div className="row-move-actions">
        <button
          type="button"
          onClick={() => {
            setPicking(!picking)
            setProblem(null)
            setPicked(null)
          }}
          aria-expanded={picking}
        >
          Move under…
        </button>
        <button
          type="button"
          onClick={() => {
            if (row.parentRow === null) return setProblem(`'${row.label}' is at the top level already.`)
            apply({ row: row.row, label: row.label, under: null, underLabel: '' })
          }}
        >
          Move to top level
        </button>
        {own && (
          <button type="button" onClick={() => onMoves(withRowMove(moves, row.row, null), row.row)}>
            Reset row to detected
          </button>
        )}
      </div>
      {picking && (
        <div className="row-move-picker" role="group" aria-label="Choose the new parent">
          {choices.length === 0 ? (
            <p className="hint">No row above this one to move it under.</p>
          ) : (
            <>
              <input
                type="search"
                aria-label="Find a parent row"
                placeholder="Find a row…"
                value={query}
                onChange={(e) => setQuery(e.currentTarget.value)}
              />
              <select
                aria-label="New parent"
                size={Math.min(8, Math.max(2, listed.length))}
                value={picked === null ? '' : String(picked)}
                onChange={(e) => setPicked(Number(e.currentTarget.value))}
                onDoubleClick={moveUnder}
              >
                {listed.map((c) => (
                  <option key={c.row} value={c.row} title={pathText(c.path)}>
                    {choiceText(c)}
                  </option>
                ))}
              </select>
              {listed.length === 0 && <p className="hint">No row above this one matches “{query}”.</p>}
              {shown.length > listed.length && <p className="hint">The {CHOICES_SHOWN} nearest rows are listed; type to find others.</p>}
              <div className="row-move-actions">
                <button type="button" onClick={moveUnder}>
                  Move here
                </button>
                <button type="button" onClick={() => setPicking(false)}>
                  Cancel
                </button>
              </div>
            </>
          )}
        </div>
      )}
      {problem && (
        <p className="inline-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  )
}
