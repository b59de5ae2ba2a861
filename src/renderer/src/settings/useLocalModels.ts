import { useCallback, useEffect, useRef, useState } from 'react'
import type { InstalledModel, LocalModelsView, ModelDownload } from '../../../shared/local-model'
import type { AppError, Result } from '../../../shared/result'
import { useApi } from '../api/context'
import { errorFromCause } from '../common/failure'

export type LocalModelsState = {
  view: LocalModelsView | null
  error: AppError | null
  /** Downloads by catalog id, kept current by the `models:download` events. */
  downloads: Record<string, ModelDownload>
  refresh: () => void
  download: (id: string) => Promise<AppError | null>
  pause: (id: string) => Promise<AppError | null>
  cancel: (id: string) => Promise<AppError | null>
  useFile: (path: string | undefined, copy: boolean) => Promise<Result<InstalledModel | null>>
}

/**
 * The built-in model's side of the UI: the catalog, the models on disk, disk and memory, and live
 * downloads. `onChanged` is told when the built-in endpoint may have changed (a download finished, a
 * file was chosen), so the endpoint list can be read again.
 */
export function useLocalModels(onChanged: () => void): LocalModelsState {
  const api = useApi()
  const [view, setView] = useState<LocalModelsView | null>(null)
  const [error, setError] = useState<AppError | null>(null)
  const [downloads, setDownloads] = useState<Record<string, ModelDownload>>({})
  const changed = useRef(onChanged)
  useEffect(() => {
    changed.current = onChanged
  }, [onChanged])

  const refresh = useCallback(() => {
    api.listModels().then(
      (r) => {
        if (!r.ok) return setError(r.error)
        setError(null)
        setView(r.value)
        setDownloads((d) => ({ ...Object.fromEntries(r.value.downloads.map((x) => [x.id, x])), ...d }))
      },
      (cause: unknown) => setError(errorFromCause('Listing models', cause))
    )
  }, [api])

  useEffect(refresh, [refresh])
  useEffect(
    () =>
      api.on('models:download', (d) => {
        setDownloads((all) => ({ ...all, [d.id]: d }))
        if (d.state === 'done') {
          refresh()
          changed.current()
        }
      }),
    [api, refresh]
  )

  const act = useCallback(
    async (doing: string, call: () => Promise<Result<unknown>>): Promise<AppError | null> => {
      const r = await call().catch((cause: unknown) => ({ ok: false as const, error: errorFromCause(doing, cause) }))
      refresh()
      return r.ok ? null : r.error
    },
    [refresh]
  )

  return {
    view,
    error,
    downloads,
    refresh,
    download: (id) => act('Starting the download', () => api.downloadModel({ id })),
    pause: (id) => act('Pausing the download', () => api.pauseDownload({ id })),
    cancel: (id) => act('Cancelling the download', () => api.cancelDownload({ id })),
    useFile: async (path, copy) => {
      const r = await api
        .useModelFile({ ...(path === undefined ? {} : { path }), copy })
        .catch((cause: unknown) => ({ ok: false as const, error: errorFromCause('Using the file', cause) }))
      refresh()
      if (r.ok && r.value !== null) changed.current()
      return r
    }
  }
}
