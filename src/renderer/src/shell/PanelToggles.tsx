import type { Panel } from './usePanel'

type Props = { inspector: Panel; sessions: Panel; python: Panel }

function Toggle({ panel, label, controls, title }: { panel: Panel; label: string; controls: string; title: string }): React.JSX.Element {
  return (
    <button type="button" className="panel-toggle" aria-pressed={panel.open} aria-controls={controls} onClick={panel.toggle} title={title}>
      {label}
    </button>
  )
}

/** Show or hide each side panel; the grid takes the room they leave. */
export function PanelToggles({ inspector, sessions, python }: Props): React.JSX.Element {
  return (
    <div className="panel-toggles" role="group" aria-label="Panels">
      <Toggle panel={inspector} label="Header tree" controls="inspector" title="Show or hide the header-tree inspector" />
      <Toggle panel={sessions} label="Sessions" controls="side-panel" title="Show or hide sessions, questions and run history" />
      <Toggle panel={python} label="Python" controls="python-panel" title="Show or hide the Python panel" />
    </div>
  )
}
