import { useEffect, useRef } from 'react'

/** Ctrl+key (Cmd+key on macOS) anywhere in the window. */
export function useShortcut(key: string, action: () => void): void {
  const handler = useRef(action)
  useEffect(() => {
    handler.current = action
  }, [action])

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return
      if (event.key.toLowerCase() !== key) return
      event.preventDefault()
      handler.current()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [key])
}
