import { useEffect, useState } from 'react'
import type { StructureWhy } from '../../../shared/structure-why'
import { useApi } from '../api/context'

/**
 * Why the table has its layout, asked again whenever `revision` changes. Null until it arrives, and when it
 * cannot be read (the trees are shown without reasons then: the reasons are an aid, not the table).
 */
export function useTableWhy(tableId: string, revision: string): StructureWhy | null {
  const api = useApi()
  const [answer, setAnswer] = useState<{ revision: string; why: StructureWhy | null }>({ revision: '', why: null })
  useEffect(() => {
    let live = true
    api.explainTable({ tableId }).then(
      (result) => {
        if (live) setAnswer({ revision, why: result.ok ? result.value : null })
      },
      () => {
        if (live) setAnswer({ revision, why: null })
      }
    )
    return () => {
      live = false
    }
  }, [api, tableId, revision])
  return answer.revision === revision ? answer.why : null
}
