import { useEffect, useMemo, useRef, useState } from 'react'
import type { HeaderNode } from '../../../shared/table'
import { formatCount } from '../common/format'
import { ancestorKeys, pathKey, type HeaderAxis, type HeaderSelection } from '../table/grid/selection'
import { keysToDepth, visibleItems, type TreeItem } from '../table/grid/treeItems'
import type { WhyOf } from './why'

type Props = {
  /** Accessible name of the tree. */
  label: string
  axis: HeaderAxis
  root: HeaderNode
  selection: HeaderSelection | null
  onSelect: (selection: HeaderSelection) => void
  /** Why a node is where it is, shown under the selected node and as every node's tooltip. */
  whyOf?: WhyOf
}

const INITIAL_DEPTH = 2

/**
 * A header tree as an ARIA tree: arrows move, Right/Left open and close (or go to the child/parent),
 * Home/End jump, Enter or Space selects. One item is in the tab order at a time.
 */
export function HeaderTree({ label, axis, root, selection, onSelect, whyOf }: Props): React.JSX.Element {
  const [expanded, setExpanded] = useState<Set<string>>(() => keysToDepth(root, INITIAL_DEPTH))
  const [focusedId, setFocusedId] = useState<string | null>(null)
  const list = useRef<HTMLUListElement>(null)
  const selectedKey = selection && selection.axis === axis ? pathKey(selection.path) : null

  // A node chosen in the grid must show here: open the nodes above it, once per new selection.
  const [revealed, setRevealed] = useState<string | null>(null)
  if (selection && selectedKey !== null && selectedKey !== revealed) {
    setRevealed(selectedKey)
    const above = ancestorKeys(selection.path)
    if (!above.every((k) => expanded.has(k))) setExpanded(new Set([...expanded, ...above]))
  }

  const items = useMemo(() => visibleItems(root, expanded), [root, expanded])
  const byId = useMemo(() => new Map(items.map((item, i) => [item.id, i])), [items])

  // Scroll the list itself, not the panel around it: the layout form stays in view.
  useEffect(() => {
    const box = list.current
    const element = selectedKey === null ? null : box?.querySelector<HTMLElement>('[aria-selected="true"]')
    if (!box || !element) return
    const top = element.offsetTop
    if (top < box.scrollTop) box.scrollTop = top
    else if (top + element.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top + element.offsetHeight - box.clientHeight
  }, [selectedKey, items])

  const selectedItem = selectedKey === null ? undefined : items.find((i) => i.key === selectedKey)
  const tabbableId = (focusedId !== null && byId.has(focusedId) ? focusedId : null) ?? selectedItem?.id ?? items[0]?.id ?? null

  const focusItem = (item: TreeItem | undefined): void => {
    if (!item) return
    setFocusedId(item.id)
    list.current?.querySelector<HTMLElement>(`[data-id="${item.id}"]`)?.focus()
  }

  const toggle = (item: TreeItem, open: boolean): void => {
    setExpanded((prev) => {
      const next = new Set(prev)
      if (open) next.add(item.key)
      else next.delete(item.key)
      return next
    })
  }

  const onKeyDown = (event: React.KeyboardEvent<HTMLUListElement>): void => {
    const at = tabbableId === null ? -1 : (byId.get(tabbableId) ?? -1)
    const item = items[at]
    if (!item) return
    let handled = true
    switch (event.key) {
      case 'ArrowDown':
        focusItem(items[at + 1])
        break
      case 'ArrowUp':
        focusItem(items[at - 1])
        break
      case 'Home':
        focusItem(items[0])
        break
      case 'End':
        focusItem(items[items.length - 1])
        break
      case 'ArrowRight':
        if (item.hasChildren && !item.expanded) toggle(item, true)
        else if (item.expanded) focusItem(items[at + 1])
        break
      case 'ArrowLeft':
        if (item.expanded) toggle(item, false)
        else if (item.parentId !== null) focusItem(items[byId.get(item.parentId) ?? -1])
        break
      case 'Enter':
      case ' ':
        onSelect({ axis, path: item.path })
        break
      default:
        handled = false
    }
    if (handled) event.preventDefault()
  }

  if (items.length === 0) return <p className="muted small">{axis === 'top' ? 'No header rows.' : 'No row index: rows are numbered.'}</p>

  return (
    <ul className="header-tree" role="tree" aria-label={label} ref={list} onKeyDown={onKeyDown}>
      {items.map((item) => {
        const why = whyOf?.(item.cell) ?? null
        const selected = item.key === selectedKey
        return [
          <li
            key={item.id}
            data-id={item.id}
            role="treeitem"
            aria-level={item.level}
            aria-setsize={item.setSize}
            aria-posinset={item.posInSet}
            aria-expanded={item.hasChildren ? item.expanded : undefined}
            aria-selected={selected}
            aria-describedby={selected && why !== null ? `${axis}-why` : undefined}
            title={why ?? undefined}
            tabIndex={item.id === tabbableId ? 0 : -1}
            className="tree-item"
            style={{ paddingLeft: 4 + (item.level - 1) * 14 }}
            onClick={() => {
              setFocusedId(item.id)
              onSelect({ axis, path: item.path })
            }}
          >
            <span
              className="tree-twisty"
              aria-hidden="true"
              onClick={(event) => {
                if (!item.hasChildren) return
                event.stopPropagation()
                setFocusedId(item.id)
                toggle(item, !item.expanded)
              }}
            >
              {item.hasChildren ? (item.expanded ? '▾' : '▸') : ''}
            </span>
            <span className={item.text === '' ? 'tree-text muted' : 'tree-text'}>{item.text === '' ? '(blank)' : item.text}</span>
          </li>,
          selected && why !== null && (
            <li
              key={`${item.id}?`}
              id={`${axis}-why`}
              role="none"
              className="tree-why"
              data-testid={`${axis}-why`}
              style={{ paddingLeft: 22 + (item.level - 1) * 14 }}
            >
              {why}
            </li>
          ),
          item.more > 0 && (
            <li key={`${item.id}+`} role="none" className="tree-more" style={{ paddingLeft: 22 + (item.level - 1) * 14 }}>
              …and {formatCount(item.more)} more
            </li>
          )
        ]
      })}
    </ul>
  )
}
