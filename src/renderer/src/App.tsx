import { useCallback, useRef, useState } from 'react'
import type { RunRecord } from '../../shared/api'
import { Banner } from './Banner'
import { DropOverlay } from './DropOverlay'
import { ErrorBoundary } from './ErrorBoundary'
import { HistoryList } from './HistoryList'
import { useAppInfo } from './hooks/useAppInfo'
import { useFileDrop } from './hooks/useFileDrop'
import { useHistory } from './hooks/useHistory'
import { useOpenTable } from './hooks/useOpenTable'
import { usePythonRun } from './hooks/usePythonRun'
import { usePythonStatus } from './hooks/usePythonStatus'
import { useShortcut } from './hooks/useShortcut'
import { RunOutput } from './RunOutput'
import { ScratchPanel } from './ScratchPanel'
import { StatusBar } from './StatusBar'
import { TableTabs } from './TableTabs'
import { TableView } from './TableView'
import { Toolbar } from './Toolbar'

export function App(): React.JSX.Element {
  const { info, error: infoError } = useAppInfo()
  const status = usePythonStatus()
  const history = useHistory()
  const tables = useOpenTable()
  const python = usePythonRun(history.refresh)
  const [code, setCode] = useState('')
  const [selectedRun, setSelectedRun] = useState<string | null>(null)
  const picker = useRef<HTMLInputElement>(null)

  const { openDialog, openFile } = tables
  const open = useCallback(() => {
    if (info?.nativeFileDialog) openDialog()
    else picker.current?.click()
  }, [info, openDialog])
  useShortcut('o', open)
  const dragging = useFileDrop(openFile)

  const tableId = tables.table?.id ?? null
  const { run: runPython, runningId } = python
  const run = useCallback(() => {
    if (runningId) return
    setSelectedRun(null)
    runPython(code, tableId)
  }, [code, runPython, runningId, tableId])

  const { show } = python
  const selectRun = useCallback(
    (record: RunRecord) => {
      setCode(record.code)
      setSelectedRun(record.id)
      show(record)
    },
    [show]
  )

  return (
    <div className="app">
      <Toolbar opening={tables.opening} onOpen={open} onFile={openFile} pickerRef={picker} />
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
      <main className="workspace">
        <div className="main-column">
          {tables.table ? (
            <div className="table-area">
              <TableTabs tables={tables.tables} activeId={tables.table.id} onSelect={tables.select} />
              <ErrorBoundary key={tables.table.id} area="table">
                <TableView table={tables.table} />
              </ErrorBoundary>
            </div>
          ) : (
            <section className="empty-table" aria-label="No table">
              <p>{tables.opening ? `Opening ${tables.opening}…` : 'Open a table (CSV, TSV, XLSX, ODS, HTML, JSON, SQLite) or drop one here.'}</p>
            </section>
          )}
          <div className="workbench">
            <ScratchPanel
              code={code}
              onCodeChange={setCode}
              running={runningId !== null}
              onRun={run}
              onStop={python.stop}
              tableName={tables.table?.name ?? null}
              stopError={python.stopError}
            />
            <ErrorBoundary area="output">
              <RunOutput shown={python.shown} running={runningId !== null} />
            </ErrorBoundary>
          </div>
        </div>
        <HistoryList runs={history.runs} error={history.error} selectedId={selectedRun} onSelect={selectRun} onClear={history.clear} />
      </main>
      <StatusBar status={status} info={info} infoError={infoError} />
      {dragging && <DropOverlay />}
    </div>
  )
}
