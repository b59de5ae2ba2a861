import { useMemo } from 'react'
import { tokenize } from './highlight'

/** A Python program, highlighted. */
export function Code({ code, label }: { code: string; label?: string }): React.JSX.Element {
  const tokens = useMemo(() => tokenize(code), [code])
  return (
    <pre className="py-code" aria-label={label}>
      <code>
        {tokens.map((t, i) =>
          t.kind === 'space' || t.kind === 'name' || t.kind === 'other' ? (
            t.text
          ) : (
            <span key={i} className={`tok-${t.kind}`}>
              {t.text}
            </span>
          )
        )}
      </code>
    </pre>
  )
}
