import type { SampleName } from '../../../shared/session'
import { OPENABLE } from './Toolbar'
import { shortcut } from '../common/platform'

type Sample = { name: SampleName; title: string; kind: string; description: string }

/** The tables in resources/samples (see the README there). */
export const SAMPLES: readonly Sample[] = [
  {
    name: 'orders-csv',
    title: 'Coffee orders',
    kind: 'CSV · flat table',
    description: '60 wholesale orders with one header row: customers, products, bags and totals.'
  },
  {
    name: 'regional-report-xlsx',
    title: 'Regional revenue report',
    kind: 'XLSX · hierarchical',
    description: 'Three merged header rows (year › measure › half) and indented product lines under each region.'
  },
  {
    name: 'bookshop-sqlite',
    title: 'Bookshop database',
    kind: 'SQLite · two tables',
    description: 'Authors and their books, joined by author_id.'
  }
]

type Props = {
  opening: string | null
  onOpen: () => void
  onSample: (name: SampleName, label: string) => void
  /** The guided model-endpoint setup, shown until an endpoint exists. */
  endpointSetup?: React.ReactNode
}

/** What the workspace shows when no table is open. */
export function Welcome({ opening, onOpen, onSample, endpointSetup }: Props): React.JSX.Element {
  const formats = OPENABLE.split(',')
    .map((e) => e.slice(1).toUpperCase())
    .filter((e) => e !== 'TXT' && e !== 'HTM' && e !== 'DB')
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h2 id="welcome-title">Ask questions about tables of any shape</h2>
      <p className="muted">
        Open a table ({formats.join(', ')}) with <kbd>{shortcut('O')}</kbd>, drop a file anywhere, or start from a sample. Multi-row headers
        and nested row labels become a pandas MultiIndex you can inspect and correct.
      </p>
      <div className="welcome-actions">
        <button type="button" className="primary" onClick={onOpen} disabled={opening !== null}>
          Open a table…
        </button>
        {opening !== null && <span className="muted">Opening {opening}…</span>}
      </div>
      <h3 className="welcome-subtitle">Samples</h3>
      <ul className="samples" aria-label="Sample tables">
        {SAMPLES.map((s) => (
          <li key={s.name}>
            <button
              type="button"
              className="sample"
              aria-label={`Open sample: ${s.title}`}
              disabled={opening !== null}
              onClick={() => onSample(s.name, s.title)}
            >
              <span className="sample-kind">{s.kind}</span>
              <strong>{s.title}</strong>
              <span className="sample-description">{s.description}</span>
            </button>
          </li>
        ))}
      </ul>
      {endpointSetup}
    </section>
  )
}
