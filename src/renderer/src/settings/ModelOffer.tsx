import { useState } from 'react'
import type { CatalogModel, LocalModelsView, ModelDownload } from '../../../shared/local-model'
import type { AppError } from '../../../shared/result'
import { useAppInfo } from '../common/useAppInfo'
import type { LocalModelsState } from './useLocalModels'
import './settings.css'

export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`
  return `${Math.max(0, Math.round(bytes / 1e3))} KB`
}

function duration(seconds: number): string {
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`
  if (seconds >= 60) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`
  return `${Math.max(0, Math.round(seconds))} s`
}

/** Why a model cannot be downloaded here now (disk), or why it may run poorly (memory); null when fine. */
function fitProblem(m: CatalogModel, view: LocalModelsView, received: number): { blocking: boolean; text: string } | null {
  const needed = m.sizeBytes - received
  if (view.freeDiskBytes !== null && view.freeDiskBytes < needed)
    return {
      blocking: true,
      text: `Needs ${formatBytes(needed)} of free disk space; ${formatBytes(view.freeDiskBytes)} is free in ${view.modelsDir}.`
    }
  if (m.ramBytes > view.totalMemoryBytes)
    return {
      blocking: false,
      text: `Needs about ${formatBytes(m.ramBytes)} of memory; this computer has ${formatBytes(view.totalMemoryBytes)}.`
    }
  return null
}

function DownloadProgress({ d, models }: { d: ModelDownload; models: LocalModelsState }): React.JSX.Element {
  const percent = d.totalBytes > 0 ? Math.floor((d.receivedBytes / d.totalBytes) * 100) : 0
  const detail =
    d.state === 'verifying'
      ? `Checking the SHA-256… ${percent}%`
      : `${formatBytes(d.receivedBytes)} of ${formatBytes(d.totalBytes)}` +
        (d.state === 'downloading' && d.bytesPerSecond > 0 ? ` · ${formatBytes(d.bytesPerSecond)}/s` : '') +
        (d.state === 'downloading' && d.secondsLeft !== null ? ` · ${duration(d.secondsLeft)} left` : '') +
        (d.state === 'paused' ? ' · paused' : '')
  return (
    <div className="model-download" data-testid="model-download">
      <progress max={100} value={percent} aria-label="Download progress" />
      <span className="small">{detail}</span>
      <div className="endpoint-actions">
        {d.state === 'downloading' && (
          <button type="button" onClick={() => void models.pause(d.id)}>
            Pause
          </button>
        )}
        {(d.state === 'paused' || d.state === 'failed') && (
          <button type="button" className="primary" onClick={() => void models.download(d.id)}>
            Resume
          </button>
        )}
        {d.state !== 'verifying' && (
          <button type="button" onClick={() => void models.cancel(d.id)}>
            Cancel
          </button>
        )}
      </div>
    </div>
  )
}

function CatalogEntry({
  m,
  models,
  view
}: {
  m: CatalogModel & { installed: boolean }
  models: LocalModelsState
  view: LocalModelsView
}): React.JSX.Element {
  const [error, setError] = useState<AppError | null>(null)
  const d = models.downloads[m.id]
  const active = d !== undefined && ['downloading', 'paused', 'verifying'].includes(d.state)
  const fit = fitProblem(m, view, d?.receivedBytes ?? 0)
  return (
    <li className="catalog-model">
      <div className="endpoint-line">
        <strong>{m.name}</strong>
        <span className="muted small">
          {formatBytes(m.sizeBytes)} download · about {formatBytes(m.ramBytes)} of memory ·{' '}
          {m.form === 'chat' ? 'instruction-tuned' : 'code completion'} · {m.licence}
        </span>
      </div>
      <p className="muted small">{m.description}</p>
      {fit && <p className={fit.blocking ? 'inline-error' : 'small'}>{fit.text}</p>}
      {active && d !== undefined ? (
        <DownloadProgress d={d} models={models} />
      ) : m.installed ? (
        <p className="small">Downloaded.</p>
      ) : (
        <button
          type="button"
          className={m.recommended === true ? 'primary' : ''}
          disabled={fit?.blocking === true}
          onClick={() => void models.download(m.id).then(setError)}
        >
          Download {m.name.split(' (')[0]} ({formatBytes(m.sizeBytes)})
        </button>
      )}
      {d?.state === 'failed' && d.error && (
        <p className="inline-error" role="alert">
          {d.error.message}
        </p>
      )}
      {error && (
        <p className="inline-error" role="alert">
          {error.message}
        </p>
      )}
    </li>
  )
}

/** "Use a GGUF file I already have": the native dialog in the desktop app, a typed path in browser mode. */
export function UseFile({ models }: { models: LocalModelsState }): React.JSX.Element {
  const info = useAppInfo()
  const native = info.info?.nativeFileDialog === true
  const [path, setPath] = useState('')
  const [copy, setCopy] = useState(false)
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const use = (): void => {
    setBusy(true)
    setMessage(null)
    void models.useFile(native ? undefined : path.trim(), copy).then((r) => {
      setBusy(false)
      if (!r.ok) setMessage({ ok: false, text: r.error.message })
      else if (r.value !== null) setMessage({ ok: true, text: `Using ${r.value.name} (${formatBytes(r.value.sizeBytes)}).` })
    })
  }
  return (
    <div className="use-file">
      {!native && (
        <label>
          Path of a GGUF file on this computer
          <input value={path} onChange={(e) => setPath(e.currentTarget.value)} placeholder="/home/me/models/model.gguf" />
        </label>
      )}
      <label className="check">
        <input type="checkbox" checked={copy} onChange={(e) => setCopy(e.currentTarget.checked)} /> Copy it into the app's models folder
      </label>
      <button type="button" onClick={use} disabled={busy || (!native && path.trim() === '')}>
        {busy ? 'Checking the file…' : 'Use a GGUF file I already have…'}
      </button>
      {message && (
        <p className={message.ok ? 'endpoint-check' : 'inline-error'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </p>
      )}
    </div>
  )
}

/** The offer of the built-in model: download one (progress, pause, resume, cancel), or use a file already here. */
export function ModelOffer({ models }: { models: LocalModelsState }): React.JSX.Element | null {
  const { view } = models
  if (view === null) return models.error ? <p className="inline-error">{models.error.message}</p> : null
  const recommended = view.catalog.filter((m) => m.recommended === true)
  const others = view.catalog.filter((m) => m.recommended !== true)
  return (
    <div className="model-offer" aria-label="Built-in model">
      <p className="muted">
        Answer questions on this computer, offline, with a built-in code model: download it once ({view.physicalCores} CPU core
        {view.physicalCores === 1 ? '' : 's'}, {formatBytes(view.totalMemoryBytes)} of memory here).
      </p>
      {view.builtin.state === 'invalid' && <p className="inline-error">{view.builtin.message}</p>}
      <ul className="catalog">
        {recommended.map((m) => (
          <CatalogEntry key={m.id} m={m} models={models} view={view} />
        ))}
      </ul>
      <details>
        <summary>Other models</summary>
        <ul className="catalog">
          {others.map((m) => (
            <CatalogEntry key={m.id} m={m} models={models} view={view} />
          ))}
        </ul>
      </details>
      <UseFile models={models} />
    </div>
  )
}
