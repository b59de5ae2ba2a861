import { useEffect } from 'react'

function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  const tag = target.tagName
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT'
}

/** A bare key (like "/") that focuses an element, unless the user is typing somewhere. */
export function useFocusKey(key: string, elementId: string): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key !== key || event.ctrlKey || event.metaKey || event.altKey || typingInto(event.target)) return
      const element = document.getElementById(elementId)
      if (!element) return
      event.preventDefault()
      element.focus()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [key, elementId])
}
