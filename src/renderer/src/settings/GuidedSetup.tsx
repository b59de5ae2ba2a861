import type { FormStart } from './EndpointForm'
import { useStudio } from '../question/studio'
import './settings.css'

type Preset = FormStart['preset']

export const PRESETS: { hosted: Preset; local: Preset } = {
  hosted: { name: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', api: 'chat', needsKey: true },
  local: { name: 'Local server', baseUrl: 'http://127.0.0.1:8000/v1', model: '', api: 'completions', needsKey: false }
}

/** The first step of setting up: a hosted service with a key, or a server on this machine. */
export function GuidedChoice({ onChoose }: { onChoose: (preset: Preset) => void }): React.JSX.Element {
  return (
    <div className="guided" role="group" aria-label="Set up a model endpoint">
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

/** The welcome screen's card: shown until an endpoint exists. */
export function EndpointSetupCard(): React.JSX.Element | null {
  const { endpoints, settings } = useStudio()
  if (!endpoints.loaded || endpoints.endpoints.length > 0) return null
  return (
    <div className="setup-card">
      <h3 className="welcome-subtitle">Set up a model</h3>
      <p className="muted">Questions are answered by a code model. No model endpoint is set up yet.</p>
      <button type="button" className="primary" onClick={() => settings.show(true)}>
        Add a model endpoint…
      </button>
    </div>
  )
}
