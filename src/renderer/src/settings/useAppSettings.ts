import { useCallback, useEffect, useState } from 'react'
import type { AppError } from '../../../shared/result'
import type { SettingsUpdate, SettingsView } from '../../../shared/settings'
import { useApi } from '../api/context'

export type AppSettingsState = {
  view: SettingsView | null
  error: AppError | null
  saving: boolean
  save: (settings: SettingsUpdate) => Promise<boolean>
}

/**
 * The app settings and the executor in use. Asked again whenever Python starts, which is what a switch of
 * executor (from this window or another) looks like from here.
 */
export function useAppSettings(): AppSettingsState {
  const api = useApi()
  const [view, setView] = useState<SettingsView | null>(null)
  const [error, setError] = useState<AppError | null>(null)
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    let live = true
    const refresh = (): void => {
      api.getSettings().then(
        (r) => {
          if (!live) return
          if (r.ok) setView(r.value)
          else setError(r.error)
        },
        (cause: unknown) => live && setError({ code: 'internal', message: String(cause) })
      )
    }
    refresh()
    const off = api.on('python:status', (state) => {
      if (state.state === 'starting') refresh()
    })
    return () => {
      live = false
      off()
    }
  }, [api])

  const save = useCallback(
    async (settings: SettingsUpdate): Promise<boolean> => {
      setSaving(true)
      try {
        const r = await api.setSettings({ settings })
        if (r.ok) {
          setView(r.value)
          setError(null)
        } else setError(r.error)
        return r.ok
      } catch (cause) {
        setError({ code: 'internal', message: String(cause) })
        return false
      } finally {
        setSaving(false)
      }
    },
    [api]
  )

  return { view, error, saving, save }
}
