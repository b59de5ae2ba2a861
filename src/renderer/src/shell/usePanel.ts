import { useCallback, useState } from 'react'

/** A side panel's state: shown or not, and its size in px (width, or height for the Python panel). */
export type PanelState = { open: boolean; size: number }

export type PanelSpec = {
  /** Key in localStorage, so the layout is the same after a reload. */
  name: string
  open: boolean
  size: number
  min: number
  max: number
  /** Where the state was kept before panels were resizable: 'open' | 'closed'. */
  legacyOpenKey?: string
}

export type Panel = PanelState & {
  spec: PanelSpec
  toggle: () => void
  setOpen: (open: boolean) => void
  /** Set the size, kept within the panel's limits. */
  resize: (size: number) => void
}

const clamp = (n: number, min: number, max: number): number => Math.min(max, Math.max(min, Math.round(n)))

function read(spec: PanelSpec): PanelState {
  try {
    const raw = localStorage.getItem(`tableqa-panel:${spec.name}`)
    if (raw !== null) {
      const saved = JSON.parse(raw) as Partial<PanelState>
      return {
        open: typeof saved.open === 'boolean' ? saved.open : spec.open,
        size: typeof saved.size === 'number' && Number.isFinite(saved.size) ? clamp(saved.size, spec.min, spec.max) : spec.size
      }
    }
    const legacy = spec.legacyOpenKey === undefined ? null : localStorage.getItem(spec.legacyOpenKey)
    return { open: legacy === null ? spec.open : legacy !== 'closed', size: spec.size }
  } catch {
    return { open: spec.open, size: spec.size }
  }
}

function write(name: string, state: PanelState): void {
  try {
    localStorage.setItem(`tableqa-panel:${name}`, JSON.stringify(state))
  } catch {
    // Storage can be unavailable (private windows): the layout is then not remembered.
  }
}

/** A collapsible, resizable panel whose state survives reloads. */
export function usePanel(spec: PanelSpec): Panel {
  const [state, setState] = useState<PanelState>(() => read(spec))
  const update = useCallback(
    (change: (s: PanelState) => PanelState) =>
      setState((s) => {
        const next = change(s)
        write(spec.name, next)
        return next
      }),
    [spec.name]
  )
  const toggle = useCallback(() => update((s) => ({ ...s, open: !s.open })), [update])
  const setOpen = useCallback((open: boolean) => update((s) => ({ ...s, open })), [update])
  const resize = useCallback(
    (size: number) => update((s) => ({ ...s, size: clamp(size, spec.min, spec.max) })),
    [update, spec.min, spec.max]
  )
  return { ...state, spec, toggle, setOpen, resize }
}
