import { createContext, useContext } from 'react'
import type { TableQaApi } from '../../../shared/api'

/** The transport, handed down from main.tsx so components can be rendered against any implementation. */
export const ApiContext = createContext<TableQaApi | null>(null)

export function useApi(): TableQaApi {
  const api = useContext(ApiContext)
  if (!api) throw new Error('useApi needs an ApiContext provider')
  return api
}
