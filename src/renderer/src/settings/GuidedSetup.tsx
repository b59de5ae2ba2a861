import type { FormStart } from './EndpointForm'
import { useStudio } from '../question/studio'
import { ModelOffer, formatBytes } from './ModelOffer'
import { useLocalModels } from './useLocalModels'
import './settings.css'

type Preset = FormStart['preset']

export const PRESETS: { hosted: Preset; local: Preset } = {
  hosted: { name: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', api: 'chat', needsKey: true },
  local: { name: 'Local server', baseUrl: 'http://127.0.0.1:8000/v1', model: '', api: 'completions', needsKey: false }
}

/** The first step of setting up: the built-in model, a hosted service with a key, or a server on this machine. */
export function GuidedChoice({ onChoose, onBuiltin }: { onChoose: (preset: Preset) => void; onBuiltin?: () => void }): React.JSX.Element {
  return (
    <div className="guided" role="group" aria-label="Set up a model endpoint">
      {onBuiltin && (
        <button type="button" className="guided-option" onClick={onBuiltin}>
          <strong>On this computer</strong>
          <span className="muted small">The built-in model: download it once (or use a GGUF file you have); then it works offline.</span>
        </button>
      )}
      <button type="button" className="guided-option" onClick={() => onChoose(PRESETS.hosted)}>
        <strong>Hosted API with a key</strong>
        <span className="muted small">OpenAI or any compatible service. You paste the key once; it is stored encrypted.</span>
      </button>
      <button type="button" className="guided-option" onClick={() => onChoose(PRESETS.local)}>
        <strong>Local server URL</strong>
        <span className="muted small">vLLM, llama.cpp, Ollama or TGI on this machine: nothing leaves it.</span>
      </button>
    </div>
  )
}

/**
 * The welcome screen's card: until some endpoint can answer, it offers the built-in model (download, or
 * a GGUF file already here) and a server; once the built-in model is ready, it says so in one line.
 */
export function EndpointSetupCard(): React.JSX.Element | null {
  const { endpoints, settings } = useStudio()
  const models = useLocalModels(endpoints.refresh)
  if (!endpoints.loaded) return null
  const builtin = endpoints.endpoints.find((e) => e.kind === 'builtin')
  const ready = builtin?.builtinState?.state === 'ready' ? builtin.builtinState.model : null
  if (endpoints.configured.length > 0) return null
  if (ready !== null)
    return (
      <p className="setup-ready" data-testid="builtin-ready">
        ✓ The built-in model is ready: <strong>{ready.name}</strong> ({formatBytes(ready.sizeBytes)}) answers on this computer, offline.
      </p>
    )
  return (
    <div className="setup-card">
      <h3 className="welcome-subtitle">Set up a model</h3>
      <p className="muted">Questions are answered by a code model. No model endpoint is set up yet.</p>
      <ModelOffer models={models} />
      <p className="muted small">Or use a server: a hosted API with a key, or vLLM, llama.cpp, Ollama or TGI on a URL.</p>
      <button type="button" className="primary" onClick={() => settings.show(true)}>
        Add a model endpoint…
      </button>
    </div>
  )
}
