import { useEffect, useState } from 'react'
import type { TableStructure } from '../../../shared/api'
import type { AppError } from '../../../shared/result'
import { errorFromCause } from '../failure'
import { useApi } from './apiContext'

export type StructureState = { structure: TableStructure | null; error: AppError | null }

/** The header trees and tuples of a table; asked again whenever `revision` changes (after a restructure). */
export function useTableStructure(tableId: string, revision: string): StructureState {
  const api = useApi()
  const [state, setState] = useState<StructureState>({ structure: null, error: null })
  useEffect(() => {
    let live = true
    api.tableStructure({ tableId }).then(
      (result) => {
        if (!live) return
        setState(result.ok ? { structure: result.value, error: null } : { structure: null, error: result.error })
      },
      (cause: unknown) => {
        if (live) setState({ structure: null, error: errorFromCause('Reading the header trees', cause) })
      }
    )
    return () => {
      live = false
    }
  }, [api, tableId, revision])
  return state
}
