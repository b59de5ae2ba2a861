import { useState } from 'react'
import type { EndpointView } from '../../../shared/ask'
import type { EngineView } from '../../../shared/local-model'
import { ModelOffer, formatBytes } from './ModelOffer'
import { FormFooter } from './FormFooter'
import type { EndpointsState } from './useEndpoints'
import { useLocalModels } from './useLocalModels'

type Props = { endpoint: EndpointView; endpoints: EndpointsState; onSaved: (saved: EndpointView) => void; onCancel: () => void }

const AUTOMATIC = ''

/** The built-in endpoint's settings: which model file, the context size, the threads; and getting a model. */
export function BuiltinForm({ endpoint, endpoints, onSaved, onCancel }: Props): React.JSX.Element {
  const models = useLocalModels(endpoints.refresh)
  const current = endpoint.builtin
  const state = endpoint.builtinState
  const [file, setFile] = useState(state?.state === 'invalid' ? state.file : (current?.modelFile ?? AUTOMATIC))
  const [context, setContext] = useState(String(current?.contextSize ?? 8192))
  const [threads, setThreads] = useState(String(current?.threads ?? 0))
  const [gpu, setGpu] = useState<'auto' | 'cpu'>(current?.gpu ?? 'auto')
  const [makeDefault, setMakeDefault] = useState(endpoint.isDefault)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const installed = models.view?.installed ?? []
  const cores = models.view?.physicalCores ?? null

  const submit = (event: React.FormEvent): void => {
    event.preventDefault()
    const contextSize = Number(context)
    const threadCount = Number(threads)
    if (!Number.isInteger(contextSize) || contextSize < 1024)
      return setError('The context size must be a whole number of at least 1024 tokens.')
    if (!Number.isInteger(threadCount) || threadCount < 0) return setError('Threads must be a whole number; 0 uses one per physical core.')
    setSaving(true)
    setError(null)
    endpoints
      .save(
        {
          kind: 'builtin',
          id: endpoint.id,
          builtin: { modelFile: file === AUTOMATIC ? null : file, contextSize, threads: threadCount, gpu }
        },
        undefined,
        makeDefault
      )
      .then(
        (r) => {
          setSaving(false)
          if (!r.ok) return setError(r.error.message)
          onSaved(r.value)
        },
        () => setSaving(false)
      )
  }

  return (
    <div className="builtin-form">
      <form className="endpoint-form" onSubmit={submit} aria-label="Built-in model settings">
        <label>
          Model
          <select aria-label="Model file" value={file} onChange={(e) => setFile(e.currentTarget.value)}>
            <option value={AUTOMATIC}>Automatic: the first model in the models folder</option>
            {installed.map((m) => (
              <option key={m.file} value={m.file}>
                {m.name} ({formatBytes(m.sizeBytes)}, {m.form === 'chat' ? 'chat template' : 'completion'})
              </option>
            ))}
            {file !== AUTOMATIC && !installed.some((m) => m.file === file) && <option value={file}>{file}</option>}
          </select>
        </label>
        <div className="form-row">
          <label>
            Context (tokens)
            <input type="number" min={1024} step={1024} value={context} onChange={(e) => setContext(e.currentTarget.value)} />
          </label>
          <label>
            Threads (0 = {cores === null ? 'one per physical core' : `${cores}, the physical cores`})
            <input type="number" min={0} max={256} value={threads} onChange={(e) => setThreads(e.currentTarget.value)} />
          </label>
        </div>
        <label>
          Where it runs
          <select aria-label="Where the model runs" value={gpu} onChange={(e) => setGpu(e.currentTarget.value === 'cpu' ? 'cpu' : 'auto')}>
            <option value="auto">Automatic: the GPU when there is one (Metal, CUDA or Vulkan), else the CPU</option>
            <option value="cpu">The CPU only</option>
          </select>
        </label>
        {models.view !== null && <EngineStatus engine={models.view.engine} />}
        <FormFooter
          makeDefault={makeDefault}
          onMakeDefault={setMakeDefault}
          error={error}
          saving={saving}
          saveLabel="Save"
          onCancel={onCancel}
        />
      </form>
      <details open={state?.state !== 'ready'}>
        <summary>Get a model</summary>
        <ModelOffer models={models} />
      </details>
    </div>
  )
}

/** One line on the engine: not started yet, or where the model runs and how, and anything to know. */
function EngineStatus({ engine }: { engine: EngineView }): React.JSX.Element {
  const where =
    engine.backend === null
      ? null
      : engine.backend === 'cpu'
        ? `on the CPU (${engine.threads ?? '?'} threads)`
        : `on the GPU (${engine.backend}, ${engine.gpuLayers ?? 0} of ${engine.layers ?? '?'} layers)`
  const text =
    engine.state === 'stopped' || where === null
      ? engine.state === 'loading' || engine.state === 'starting'
        ? 'The model is loading…'
        : 'Not running: the model starts when a table opens or with the first question.'
      : `${engine.model ?? 'The model'} runs ${where}, ${engine.sequences ?? 1} samples side by side${engine.state === 'busy' ? '; answering now' : ''}.`
  return (
    <p className="engine-status" role="status" aria-label="Built-in model status">
      {text}
      {engine.note !== null && <span className="engine-note"> {engine.note}</span>}
    </p>
  )
}
