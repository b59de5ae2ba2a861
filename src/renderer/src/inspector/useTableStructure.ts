import { useEffect, useState } from 'react'
import type { TableStructure } from '../../../shared/api'
import type { AppError } from '../../../shared/result'
import { errorFromCause } from '../common/failure'
import { useApi } from '../api/context'

export type StructureState = { structure: TableStructure | null; error: AppError | null }

type Answer = StructureState & { revision: string }

/**
 * The header trees and tuples of a table; asked again whenever `revision` changes (after a restructure).
 * Until the new answer arrives there is none: the trees of the previous layout are never shown as current.
 */
export function useTableStructure(tableId: string, revision: string): StructureState {
  const api = useApi()
  const [answer, setAnswer] = useState<Answer>({ revision: '', structure: null, error: null })
  useEffect(() => {
    let live = true
    api.tableStructure({ tableId }).then(
      (result) => {
        if (!live) return
        setAnswer(result.ok ? { revision, structure: result.value, error: null } : { revision, structure: null, error: result.error })
      },
      (cause: unknown) => {
        if (live) setAnswer({ revision, structure: null, error: errorFromCause('Reading the header trees', cause) })
      }
    )
    return () => {
      live = false
    }
  }, [api, tableId, revision])
  return answer.revision === revision ? { structure: answer.structure, error: answer.error } : { structure: null, error: null }
}
