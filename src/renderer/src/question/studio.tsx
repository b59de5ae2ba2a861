import { createContext, useCallback, useContext, useMemo, useState } from 'react'
import type { CellRef } from '../../../shared/table'
import { useEndpoints, type EndpointsState } from '../settings/useEndpoints'
import { useAsk, type AskController } from './useAsk'

export type SettingsDialog = { open: boolean; guided: boolean; show: (guided?: boolean) => void; close: () => void }

type Studio = { endpoints: EndpointsState; settings: SettingsDialog; asking: AskController }

const StudioContext = createContext<Studio | null>(null)

/** State shared by the question panel, the endpoint settings, the history and the status bar. */
export function StudioProvider({ children }: { children: React.ReactNode }): React.JSX.Element {
  const endpoints = useEndpoints()
  const asking = useAsk()
  const [dialog, setDialog] = useState({ open: false, guided: false })
  const show = useCallback((guided = false) => setDialog({ open: true, guided }), [])
  const close = useCallback(() => setDialog({ open: false, guided: false }), [])
  const settings = useMemo(() => ({ ...dialog, show, close }), [dialog, show, close])
  const value = useMemo(() => ({ endpoints, settings, asking }), [endpoints, settings, asking])
  return <StudioContext value={value}>{children}</StudioContext>
}

export function useStudio(): Studio {
  const studio = useContext(StudioContext)
  if (!studio) throw new Error('useStudio needs a StudioProvider')
  return studio
}

/**
 * The source cells the shown answer was read from, for the grid to highlight: `tableId` is the table
 * the question was asked about (the first one, for several tables).
 */
export function useHighlightCells(): { tableId: string | null; cells: CellRef[] } {
  const { state } = useStudio().asking
  return useMemo(() => {
    if (state.phase !== 'done' || state.summary.answer === null) return { tableId: null, cells: [] }
    return { tableId: state.tableIds[0] ?? null, cells: state.summary.answer.cells }
  }, [state])
}
