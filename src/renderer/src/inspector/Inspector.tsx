import { useEffect, useRef, useState } from 'react'
import type { TableSummary } from '../../../shared/api'
import type { AppError } from '../../../shared/result'
import type { IndexView, StructureOptions } from '../../../shared/table'
import { formatCount } from '../common/format'
import type { HeaderSelection } from '../table/grid/selection'
import type { RowMove } from '../../../shared/corrections'
import { pathKey } from '../table/grid/selection'
import { HeaderTree } from './HeaderTree'
import { pathOfRow } from './moves'
import { RowMoveControls } from './RowMoveControls'
import { useTableStructure } from './useTableStructure'
import { useTableWhy } from './useTableWhy'
import { whyLookup } from './why'

type Layout = { options: StructureOptions; view: IndexView }

type Props = {
  table: TableSummary
  /** Changes whenever the table was structured again. */
  revision: string
  selection: HeaderSelection | null
  onSelect: (selection: HeaderSelection | null) => void
  onRestructure: (options: StructureOptions, view: IndexView) => Promise<AppError | null>
  onClose: () => void
}

const TUPLES_SHOWN = 200
// Typing "12" in a number field is two changes; wait for the second before structuring again.
const DEBOUNCE_MS = 250

function tupleText(tuple: readonly string[]): string {
  if (tuple.length === 0) return '()'
  const parts = tuple.map((t) => `'${t.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`)
  return tuple.length === 1 ? `(${parts[0]},)` : `(${parts.join(', ')})`
}

function detectedTitle(rows: number): string {
  return rows === 0 ? '' : `${rows} title ${rows === 1 ? 'row' : 'rows'}, `
}

function sameLayout(a: Layout, b: Layout): boolean {
  return (
    a.view === b.view &&
    (a.options.titleRows ?? 0) === (b.options.titleRows ?? 0) &&
    a.options.headerRows === b.options.headerRows &&
    a.options.headerCols === b.options.headerCols &&
    (a.options.leftHierarchy ?? 'auto') === (b.options.leftHierarchy ?? 'auto') &&
    JSON.stringify(a.options.rowMoves ?? []) === JSON.stringify(b.options.rowMoves ?? [])
  )
}

/** The header-tree inspector: the layout as editable numbers, both trees, and the tuples they give. */
export function Inspector({ table, revision, selection, onSelect, onRestructure, onClose }: Props): React.JSX.Element {
  const { structure, error } = useTableStructure(table.id, revision)
  const why = useTableWhy(table.id, revision)
  const [draft, setDraft] = useState<Layout | null>(null)
  const [pending, setPending] = useState(false)
  const [failure, setFailure] = useState<AppError | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const ticket = useRef(0)
  const applied: Layout = { options: table.structure, view: table.view }
  const layout = draft ?? applied
  const moves = layout.options.rowMoves ?? []
  // A moved row stays selected: its node has a new path once the table is structured again.
  const follow = useRef<{ row: number; from: string } | null>(null)
  useEffect(() => {
    const wanted = follow.current
    if (wanted === null || structure === null || wanted.from === revision) return
    follow.current = null
    const path = pathOfRow(structure.leftTree, wanted.row)
    if (path !== null) onSelect({ axis: 'left', path })
  }, [structure, revision, onSelect])

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
    },
    []
  )

  const change = (next: Layout): void => {
    setDraft(next)
    setFailure(null)
    if (timer.current) clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      const mine = ++ticket.current
      setPending(true)
      void onRestructure(next.options, next.view).then((err) => {
        if (mine !== ticket.current) return
        setPending(false)
        setDraft(null)
        setFailure(err)
      })
    }, DEBOUNCE_MS)
  }

  const setCount = (field: 'titleRows' | 'headerRows' | 'headerCols', text: string): void => {
    const n = Number(text)
    if (text === '' || !Number.isInteger(n) || n < 0) return
    change({ ...layout, options: { ...layout.options, [field]: n } })
  }

  const setMoves = (next: RowMove[], row: number | null): void => {
    const { rowMoves: _old, ...rest } = layout.options
    follow.current = row === null ? null : { row, from: revision }
    change({ ...layout, options: next.length > 0 ? { ...rest, rowMoves: next } : rest })
  }

  const detected = structure?.detected
  const atDetected = detected ? sameLayout({ options: detected, view: 'multiindex' }, layout) : true

  return (
    <aside id="inspector" className="inspector" aria-labelledby="inspector-title">
      <div className="panel-header">
        <h2 id="inspector-title">Header tree</h2>
        <button type="button" className="banner-close" aria-label="Close the header-tree inspector" onClick={onClose}>
          ×
        </button>
      </div>
      <form className="layout-form" onSubmit={(e) => e.preventDefault()} aria-label="Header layout">
        <label title="Rows above the table: its title, unit and source lines">
          Title rows
          <input
            type="number"
            min={0}
            step={1}
            value={layout.options.titleRows ?? 0}
            onChange={(e) => setCount('titleRows', e.currentTarget.value)}
          />
        </label>
        <label>
          Header rows
          <input
            type="number"
            min={0}
            step={1}
            value={layout.options.headerRows}
            onChange={(e) => setCount('headerRows', e.currentTarget.value)}
          />
        </label>
        <label>
          Header columns
          <input
            type="number"
            min={0}
            step={1}
            value={layout.options.headerCols}
            onChange={(e) => setCount('headerCols', e.currentTarget.value)}
          />
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={(layout.options.leftHierarchy ?? 'auto') === 'auto'}
            onChange={(e) =>
              change({ ...layout, options: { ...layout.options, leftHierarchy: e.currentTarget.checked ? 'auto' : 'none' } })
            }
          />
          Nest rows (sections, units, indentation)
        </label>
        <fieldset className="view-toggle">
          <legend>View</legend>
          <label>
            <input
              type="radio"
              name="index-view"
              checked={layout.view === 'multiindex'}
              onChange={() => change({ ...layout, view: 'multiindex' })}
            />
            Multi-index
          </label>
          <label>
            <input
              type="radio"
              name="index-view"
              checked={layout.view === 'flatten'}
              onChange={() => change({ ...layout, view: 'flatten' })}
            />
            Flatten
          </label>
        </fieldset>
        <p className="hint" aria-live="polite">
          {pending
            ? 'Structuring again…'
            : detected
              ? `Detected: ${detectedTitle(detected.titleRows ?? 0)}${detected.headerRows} header ${detected.headerRows === 1 ? 'row' : 'rows'}, ${detected.headerCols} header ${detected.headerCols === 1 ? 'column' : 'columns'}.`
              : ''}{' '}
          {detected && !atDetected && !pending && (
            <button type="button" className="link" onClick={() => change({ options: detected, view: 'multiindex' })}>
              Reset to detected
            </button>
          )}{' '}
          {moves.length > 0 && !pending && (
            <button type="button" className="link" onClick={() => setMoves([], null)}>
              Reset moved rows ({moves.length})
            </button>
          )}
        </p>
        {failure && (
          <p className="inline-error" role="alert">
            {failure.message}
          </p>
        )}
      </form>
      {error && (
        <p className="inline-error" role="alert">
          Could not read the header trees: {error.message}
        </p>
      )}
      {structure && (
        <div className="inspector-body">
          {structure.warnings.length > 0 && (
            <ul className="banner-list small" aria-label="Structure warnings">
              {structure.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
          {structure.title !== '' && (
            <>
              <h3 id="source-title">Title</h3>
              <p className="source-title" aria-labelledby="source-title" data-testid="source-title">
                {structure.title}
              </p>
            </>
          )}
          {structure.notes !== '' && (
            <details>
              <summary>Notes under the table</summary>
              <p className="source-title" data-testid="source-notes">
                {structure.notes}
              </p>
            </details>
          )}
          <h3 id="top-tree-title">Top tree (columns)</h3>
          <HeaderTree
            key={`top:${revision}`}
            label="Top header tree"
            axis="top"
            root={structure.topTree}
            selection={selection}
            onSelect={onSelect}
            whyOf={whyLookup(why, 'top')}
          />
          <h3 id="left-tree-title">Left tree (rows)</h3>
          {why !== null && why.labelColumns.length > 0 && (
            <p className="hint" data-testid="label-columns-why">
              {structure.detected.headerCols === table.structure.headerCols ? 'Label columns: ' : 'Label columns '}
              {why.labelColumns.map((r) => r.text).join('; ')}
            </p>
          )}
          {selection?.axis === 'left' && (
            <RowMoveControls
              key={pathKey(selection.path)}
              root={structure.leftTree}
              path={selection.path}
              moves={moves}
              onMoves={(next, row) => setMoves(next, row)}
            />
          )}
          <HeaderTree
            key={`left:${revision}`}
            label="Left header tree"
            axis="left"
            root={structure.leftTree}
            selection={selection}
            onSelect={onSelect}
            whyOf={whyLookup(why, 'left')}
          />
          {structure.treeTruncated && <p className="hint">The left tree is long; only its first nodes are shown.</p>}
          <details open>
            <summary>Column tuples ({formatCount(structure.columns.length)})</summary>
            <ol className="tuples" aria-label="Column tuples">
              {structure.columns.slice(0, TUPLES_SHOWN).map((t, i) => (
                <li key={i}>{tupleText(t)}</li>
              ))}
            </ol>
          </details>
          <details>
            <summary>Row tuples ({formatCount(structure.indexCount)})</summary>
            {structure.index.every((t) => t.length === 0) ? (
              <p className="hint">No row index (a RangeIndex in pandas).</p>
            ) : (
              <ol className="tuples" aria-label="Row tuples">
                {structure.index.slice(0, TUPLES_SHOWN).map((t, i) => (
                  <li key={i}>{tupleText(t)}</li>
                ))}
              </ol>
            )}
            {structure.indexCount > TUPLES_SHOWN && <p className="hint">…and {formatCount(structure.indexCount - TUPLES_SHOWN)} more.</p>}
          </details>
        </div>
      )}
    </aside>
  )
}
