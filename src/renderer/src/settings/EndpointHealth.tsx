import { useStudio } from '../question/studio'
import { useEndpointHealth } from './useEndpointHealth'
import './settings.css'

/** The status bar's endpoint light: reachable, unreachable or not set up; a click opens the settings. */
export function EndpointHealthStatus(): React.JSX.Element {
  const { endpoints, settings } = useStudio()
  const health = useEndpointHealth(endpoints.defaultEndpoint, endpoints.loaded, endpoints.test)
  let text: string
  let title: string
  switch (health.state) {
    case 'not-set-up':
      text = 'Model: not set up'
      title = 'No model endpoint is set up. Click to add one.'
      break
    case 'checking':
      text = `Model: ${health.name}, checking…`
      title = 'Testing the default endpoint.'
      break
    case 'reachable':
      // The built-in model is "ready" (its file checks out); a server is "reachable".
      text =
        endpoints.defaultEndpoint?.kind === 'builtin'
          ? `Model: ${endpoints.defaultEndpoint.model}, ready on this computer`
          : `Model: ${health.name}, reachable`
      title = `Last checked ${new Date(health.checkedAt).toLocaleTimeString()}`
      break
    case 'unreachable':
      text = `Model: ${health.name}, unreachable`
      title = health.message
      break
  }
  return (
    <button
      type="button"
      className={`endpoint-health health-${health.state}`}
      data-testid="endpoint-health"
      title={title}
      onClick={() => settings.show(health.state === 'not-set-up')}
    >
      <span className="dot" aria-hidden="true" />
      {text}
    </button>
  )
}
