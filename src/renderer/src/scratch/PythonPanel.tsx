import { ErrorBoundary } from '../common/ErrorBoundary'
import { Splitter } from '../shell/Splitter'
import type { Panel } from '../shell/usePanel'
import { RunOutput } from './RunOutput'
import { ScratchPanel, type ScratchProps } from './ScratchPanel'
import type { ShownRun } from './usePythonRun'

type Props = Omit<ScratchProps, 'onHide'> & { panel: Panel; shown: ShownRun | null }

/** The Python panel under the grid: folded to its title bar, or the editor beside the output at the height the user chose. */
export function PythonPanel({ panel, shown, ...scratch }: Props): React.JSX.Element {
  if (!panel.open)
    return (
      <div className="python-bar" id="python-panel">
        <button type="button" className="python-bar-open" aria-expanded="false" aria-controls="python-panel" onClick={panel.toggle}>
          <span aria-hidden="true">▸</span> Python
        </button>
        <span className="muted small">{scratch.running ? 'Running…' : 'Run your own code on the open table.'}</span>
      </div>
    )
  return (
    <>
      <Splitter panel={panel} orientation="horizontal" controls="python-panel" label="Resize the Python panel" />
      <div className="workbench" id="python-panel" style={{ height: panel.size }}>
        <ScratchPanel {...scratch} onHide={panel.toggle} />
        <ErrorBoundary area="output">
          <RunOutput shown={shown} running={scratch.running} />
        </ErrorBoundary>
      </div>
    </>
  )
}
