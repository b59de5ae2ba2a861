import { useEffect, useState } from 'react'
import type { GridApi } from 'ag-grid-community'
import type { TableSummary } from '../../../shared/api'
import type { AppError } from '../../../shared/result'
import { errorFromCause } from '../common/failure'
import { nextBlock, toGridRows, type GridRow } from './rows'
import { useApi } from '../api/context'

export type RowLoadState = {
  loaded: number
  error: AppError | null
  /** Columns main reads as numbers (known once the first block is in). */
  numeric: number[] | null
  /** Source-grid column of each data column (known once the first block is in). */
  colSource: number[] | null
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}

/**
 * Streams a table's rows into the grid block by block. The first block replaces the row data so the
 * grid shows cells at once; later blocks are added as transactions, which costs only the new rows.
 */
export function useTableRows(grid: GridApi<GridRow> | null, table: TableSummary): RowLoadState {
  const api = useApi()
  const [state, setState] = useState<RowLoadState>({ loaded: 0, error: null, numeric: null, colSource: null })

  useEffect(() => {
    if (!grid) return
    let live = true
    const load = async (): Promise<void> => {
      let loaded = 0
      for (let block = nextBlock(0, table.rowCount); block && live; block = nextBlock(loaded, table.rowCount)) {
        const result = await api.tableRows({ tableId: table.id, ...block })
        // Decoding a block is one long task; adding it to the grid is another. Let input and paint in between.
        await nextTask()
        if (!live || grid.isDestroyed()) return
        if (!result.ok) {
          setState((s) => ({ ...s, loaded, error: result.error }))
          return
        }
        const numeric = loaded === 0 ? result.value.numbers.columns : null
        const colSource = loaded === 0 ? result.value.colSource : null
        const rows = toGridRows({ ...result.value, start: loaded })
        if (loaded === 0) grid.setGridOption('rowData', rows)
        else grid.applyTransaction({ add: rows })
        loaded += rows.length
        if (rows.length === 0) {
          const error = { code: 'internal', message: `The table ended after ${loaded} of ${table.rowCount} rows.` } as const
          setState((s) => ({ ...s, loaded, error }))
          return
        }
        setState((s) => ({ loaded, error: null, numeric: numeric ?? s.numeric, colSource: colSource ?? s.colSource }))
      }
      if (live && loaded === 0) grid.setGridOption('rowData', [])
    }
    load().catch((cause: unknown) => {
      if (live) setState((s) => ({ ...s, error: errorFromCause('Loading rows', cause) }))
    })
    return () => {
      live = false
    }
  }, [api, grid, table.id, table.rowCount])

  return state
}
