import { useCallback, useRef, useState } from 'react'
import type { TableSummary } from '../../shared/api'
import type { RunRecord } from '../../shared/python'
import type { IndexView, StructureOptions } from '../../shared/table'
import { Banner } from './shell/Banner'
import { DropOverlay } from './shell/DropOverlay'
import { ErrorBoundary } from './common/ErrorBoundary'
import { HistoryList } from './scratch/HistoryList'
import { useAppInfo } from './common/useAppInfo'
import { useFileDrop } from './shell/useFileDrop'
import { useFocusKey } from './common/useFocusKey'
import { useHistory } from './scratch/useHistory'
import { useOpenTable } from './table/useOpenTable'
import { usePythonRun } from './scratch/usePythonRun'
import { usePythonStatus } from './shell/usePythonStatus'
import { useShortcut } from './common/useShortcut'
import type { HeaderSelection } from './table/grid/selection'
import { Inspector } from './inspector/Inspector'
import { PythonPanel } from './scratch/PythonPanel'
import { StatusBar } from './shell/StatusBar'
import { TableTabs } from './table/TableTabs'
import { TableView } from './table/TableView'
import { Toolbar } from './shell/Toolbar'
import { PanelToggles } from './shell/PanelToggles'
import { Splitter } from './shell/Splitter'
import { PANELS } from './shell/panels'
import { usePanel } from './shell/usePanel'
import { Welcome } from './shell/Welcome'
import { QUESTION_INPUT_ID, QuestionPanel } from './question/QuestionPanel'
import { SidePanel } from './sessions/SidePanel'
import { EndpointHealthStatus } from './settings/EndpointHealth'
import { EndpointSettings } from './settings/EndpointSettings'
import { useAppSettings } from './settings/useAppSettings'
import { useHighlightCells } from './question/studio'
import type { CellRef } from '../../shared/table'
import { EndpointSetupCard } from './settings/GuidedSetup'
import './shell/layout.css'

/** Changes whenever a table is structured again, so its grid and inspector start over. */
function revisionOf(table: TableSummary): string {
  const s = table.structure
  return `${table.id}|${s.titleRows ?? 0}|${s.headerRows}|${s.headerCols}|${s.leftHierarchy ?? 'auto'}|${table.view}|${movesKey(s.rowMoves)}`
}

/** A short key of the rows moved by hand (FNV-1a of their JSON), so each move set is a revision of its own. */
function movesKey(moves: StructureOptions['rowMoves']): string {
  if (moves === undefined || moves.length === 0) return ''
  const text = JSON.stringify(moves)
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return `${moves.length}:${(hash >>> 0).toString(36)}`
}

const NO_CELLS: readonly CellRef[] = []

export function App(): React.JSX.Element {
  const { info, error: infoError } = useAppInfo()
  const status = usePythonStatus()
  const appSettings = useAppSettings()
  const read = useHighlightCells()
  const answerRead = (tableId: string): readonly CellRef[] => (read.tableId === tableId ? read.cells : NO_CELLS)
  const history = useHistory()
  const tables = useOpenTable()
  const python = usePythonRun(history.refresh)
  const [code, setCode] = useState('')
  const [selectedRun, setSelectedRun] = useState<string | null>(null)
  const picker = useRef<HTMLInputElement>(null)
  const inspector = usePanel(PANELS.inspector)
  const sessions = usePanel(PANELS.sessions)
  const pythonPanel = usePanel(PANELS.python)

  const { openDialog, openFile } = tables
  const open = useCallback(() => {
    if (info?.nativeFileDialog) openDialog()
    else picker.current?.click()
  }, [info, openDialog])
  useShortcut('o', open)
  useFocusKey('/', QUESTION_INPUT_ID)
  const dragging = useFileDrop(openFile)

  const tableId = tables.table?.id ?? null
  const revision = tables.table ? revisionOf(tables.table) : ''
  const [picked, setPicked] = useState<{ revision: string; selection: HeaderSelection | null }>({ revision: '', selection: null })
  const selection = picked.revision === revision ? picked.selection : null
  const select = useCallback((next: HeaderSelection | null) => setPicked({ revision, selection: next }), [revision])
  const { restructure: restructureTable } = tables
  const restructure = useCallback(
    (options: StructureOptions, view: IndexView) => (tableId === null ? Promise.resolve(null) : restructureTable(tableId, options, view)),
    [restructureTable, tableId]
  )
  const { run: runPython, runningId } = python
  const run = useCallback(() => {
    if (runningId || code.trim() === '') return
    setSelectedRun(null)
    runPython(code, tableId)
  }, [code, runPython, runningId, tableId])

  const { show } = python
  const { setOpen: showPython } = pythonPanel
  const selectRun = useCallback(
    (record: RunRecord) => {
      setCode(record.code)
      setSelectedRun(record.id)
      show(record)
      showPython(true)
    },
    [show, showPython]
  )

  return (
    <div className="app">
      <Toolbar opening={tables.opening} onOpen={open} onFile={openFile} pickerRef={picker}>
        <PanelToggles inspector={inspector} sessions={sessions} python={pythonPanel} />
      </Toolbar>
      {tables.error && (
        <Banner kind="error" title="Could not open the file." onDismiss={tables.dismissError}>
          <span> {tables.error.message}</span>
          {tables.error.detail && <pre className="banner-detail">{tables.error.detail}</pre>}
        </Banner>
      )}
      {tables.warnings.length > 0 && (
        <Banner kind="warning" title="Opened with warnings:" onDismiss={tables.dismissWarnings}>
          <ul className="banner-list">
            {tables.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </Banner>
      )}
      {tables.notice && (
        <Banner kind="info" title={tables.notice} onDismiss={tables.dismissNotice}>
          {null}
        </Banner>
      )}
      <main
        className="workspace"
        style={{ gridTemplateColumns: sessions.open ? `minmax(0, 1fr) auto ${sessions.size}px` : 'minmax(0, 1fr) auto' }}
      >
        <div className="main-column">
          <QuestionPanel tables={tables.tables} activeTable={tables.table} />
          {tables.table ? (
            <div className="table-area">
              <TableTabs tables={tables.tables} activeId={tables.table.id} onSelect={tables.select} onClose={tables.close} />
              <div
                className="table-body"
                style={{ gridTemplateColumns: inspector.open ? `minmax(0, 1fr) auto ${inspector.size}px` : 'minmax(0, 1fr)' }}
              >
                <ErrorBoundary key={revision} area="table">
                  <TableView table={tables.table} selection={selection} onSelect={select} answerRead={answerRead(tables.table.id)} />
                </ErrorBoundary>
                {inspector.open && (
                  <>
                    <Splitter panel={inspector} orientation="vertical" controls="inspector" label="Resize the header tree" />
                    <ErrorBoundary key={`inspector:${tables.table.id}`} area="table">
                      <Inspector
                        table={tables.table}
                        revision={revision}
                        selection={selection}
                        onSelect={select}
                        onRestructure={restructure}
                        onClose={inspector.toggle}
                      />
                    </ErrorBoundary>
                  </>
                )}
              </div>
            </div>
          ) : tables.restored ? (
            <Welcome opening={tables.opening} onOpen={open} onSample={tables.openSample} endpointSetup={<EndpointSetupCard />} />
          ) : (
            <section className="empty-table" aria-label="No table">
              <p>Looking for open tables…</p>
            </section>
          )}
          <PythonPanel
            panel={pythonPanel}
            code={code}
            onCodeChange={setCode}
            running={runningId !== null}
            onRun={run}
            onStop={python.stop}
            tableName={tables.table?.name ?? null}
            stopError={python.stopError}
            shown={python.shown}
          />
        </div>
        {sessions.open ? (
          <>
            <Splitter panel={sessions} orientation="vertical" controls="side-panel" label="Resize sessions and history" />
            <SidePanel onClose={sessions.toggle}>
              <HistoryList
                runs={history.runs}
                error={history.error}
                selectedId={selectedRun}
                onSelect={selectRun}
                onClear={history.clear}
              />
            </SidePanel>
          </>
        ) : (
          <button
            type="button"
            className="panel-rail"
            onClick={sessions.toggle}
            aria-label="Show sessions and history"
            title="Show sessions and history"
          >
            <span>Sessions · Questions · History</span>
          </button>
        )}
      </main>
      <StatusBar status={status} info={info} infoError={infoError} executorKind={appSettings.view?.active ?? null}>
        <EndpointHealthStatus />
      </StatusBar>
      <EndpointSettings />
      {dragging && <DropOverlay />}
    </div>
  )
}
