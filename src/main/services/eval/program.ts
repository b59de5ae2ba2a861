/**
 * The wrapper every evaluated program runs in: the program runs through the runner's own `program_value`
 * (its last expression, else its `answer` variable, is the answer; an answer that is a function is an error;
 * the readings of tableqa.source) and the answer comes back shaped as plain data,
 * serialised to one JSON string so that large results (a Spider table of thousands of rows) are not cut.
 * Beside the answer come what execution feedback reads, as the app has it: the labels of a labelled
 * Series' values (or of a one-row table's columns), the read of each value of a short Series that still
 * holds the cells it was read from (tableqa.cellreads), and the runner's notes on text conditions that
 * matched no row when the answer is zero or nothing.
 */
import type { AnswerCell, ShapedAnswer } from './types'

/** Labels kept for the first values of a labelled answer. */
export const LABELS = 20

const WRAPPER = String.raw`
def __eval_run(__src):
    import linecache
    from tableqa.runner import program_value
    g = globals()
    # The program's own lines for its frames (the runner's entry for this name holds the wrapper), so that
    # an error's notes read the line that failed.
    linecache.cache["<program>"] = (len(__src), None, __src.splitlines(True), "<program>")
    g.pop("answer", None)
    return program_value(__src, g)


def __eval_shape(v, LABELS=${LABELS}):
    import json
    import math
    from tableqa.cellreads import reads_of
    from tableqa.runner import unmatched_notes

    def cell(x):
        if type(x).__module__.split(".")[0] == "numpy" and callable(getattr(x, "item", None)):
            x = x.item()
        if x is None or type(x).__name__ in ("NAType", "NaTType"):
            return None
        if isinstance(x, bool) or isinstance(x, str):
            return x
        if isinstance(x, int):
            return x if abs(x) < 2**53 else float(x)
        if isinstance(x, float):
            return None if math.isnan(x) else (x if math.isfinite(x) else str(x))
        if isinstance(x, bytes):
            return x.decode("utf-8", "ignore")
        if type(x).__name__ == "Timestamp":
            return x.isoformat()
        return str(x)

    def line(x):
        return [cell(c) for c in (x.tolist() if hasattr(x, "tolist") else list(x))]

    mod, name = type(v).__module__.split(".")[0], type(v).__name__
    if v is None:
        shaped = {"kind": "none"}
    elif mod == "pandas" and name == "DataFrame":
        shaped = {"kind": "table", "rows": [[cell(c) for c in r] for r in v.itertuples(index=False, name=None)]}
    elif mod == "numpy" and name == "ndarray" and v.ndim == 2:
        shaped = {"kind": "table", "rows": [line(r) for r in v]}
    elif mod in ("pandas", "numpy") and (name in ("Series", "ndarray") or name.endswith(("Index", "Array"))):
        shaped = {"kind": "list", "items": line(v)}
    elif isinstance(v, dict):
        shaped = {"kind": "list", "items": [cell(c) for c in v.values()]}
    elif isinstance(v, (list, tuple, set, frozenset)):
        items = sorted(v, key=lambda x: (str(type(x)), str(x))) if isinstance(v, (set, frozenset)) else list(v)
        nested = bool(items) and all(isinstance(r, (list, tuple)) or type(r).__name__ in ("Series", "ndarray") for r in items)
        if nested:
            shaped = {"kind": "table", "rows": [line(r) for r in items]}
        else:
            shaped = {"kind": "list", "items": [cell(c) for c in items]}
    else:
        shaped = {"kind": "scalar", "value": cell(v)}
    # The labels of the first values of a labelled Series (its index) or of a one-row table (its columns).
    axis = None
    if mod == "pandas" and name == "Series" and type(v.index).__name__ != "RangeIndex":
        axis = v.index
    elif mod == "pandas" and name == "DataFrame" and len(v) == 1 and len(v.columns) > 1:
        axis = v.columns
    if axis is not None:
        shaped["labels"] = [[str(x) for x in (k if isinstance(k, tuple) else (k,))] for k in list(axis)[:LABELS]]
    # The read of each value of a short Series that still holds the cells of the table it was read from.
    reads = reads_of(v)
    if reads:
        shaped["reads"] = reads[:LABELS]
    unmatched = unmatched_notes(v)
    if unmatched:
        shaped["unmatched"] = unmatched
    return json.dumps(shaped, ensure_ascii=False)
`

/** The program wrapped so its answer comes back as a JSON string of a ShapedAnswer. */
export function wrapProgram(program: string): string {
  return `${WRAPPER}\n__eval_shape(__eval_run(${JSON.stringify(program)}))\n`
}

/** A SQL candidate as a program: the query run by `sqldf` over the question's DataFrames. */
export function sqlProgram(sql: string): string {
  return `sqldf(${JSON.stringify(sql)})\n`
}

function isCell(v: unknown): v is AnswerCell {
  return v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean'
}

/**
 * What the wrapper's JSON string carries beside the answer: labels of its first values, the read of each
 * value where they are still the cells of the table they were read from, and unmatched conditions.
 */
export type ShapedNotes = { labels: string[][] | null; reads: string[] | null; unmatched: string[] }

/** The wrapper's JSON string as an object; null when the value is not one. */
function wrapperObject(json: unknown): Record<string, unknown> | null {
  if (typeof json !== 'string') return null
  let v: unknown
  try {
    v = JSON.parse(json)
  } catch {
    return null
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
}

function shapedOf(o: Record<string, unknown> | null): ShapedAnswer | null {
  switch (o?.kind) {
    case 'none':
      return { kind: 'none' }
    case 'scalar':
      return isCell(o.value) ? { kind: 'scalar', value: o.value } : null
    case 'list':
      return Array.isArray(o.items) && o.items.every(isCell) ? { kind: 'list', items: o.items } : null
    case 'table':
      return Array.isArray(o.rows) && o.rows.every((r) => Array.isArray(r) && r.every(isCell)) ? { kind: 'table', rows: o.rows } : null
    default:
      return null
  }
}

function notesOf(o: Record<string, unknown> | null): ShapedNotes {
  const texts = (x: unknown): x is string[] => Array.isArray(x) && x.every((t) => typeof t === 'string')
  return {
    labels: Array.isArray(o?.labels) && o.labels.every(texts) ? o.labels.slice(0, LABELS) : null,
    reads: texts(o?.reads) ? o.reads.slice(0, LABELS) : null,
    unmatched: texts(o?.unmatched) ? o.unmatched : []
  }
}

/** The wrapper's answer (null when the value is not the wrapper's JSON) and its notes, read in one pass. */
export function readWrapped(json: unknown): { answer: ShapedAnswer | null; notes: ShapedNotes } {
  const o = wrapperObject(json)
  return { answer: shapedOf(o), notes: notesOf(o) }
}

/** Read the wrapper's JSON string back; null when the value is not one. */
export function readShaped(json: unknown): ShapedAnswer | null {
  return shapedOf(wrapperObject(json))
}

/** Read the wrapper's notes (see `ShapedNotes`); none when the value is not the wrapper's JSON. */
export function readShapedNotes(json: unknown): ShapedNotes {
  return notesOf(wrapperObject(json))
}

/** Python's `str()` of a cell, as a prediction string for the WikiTQ matcher. */
export function pyStr(v: AnswerCell): string {
  if (v === null) return 'None'
  if (typeof v === 'boolean') return v ? 'True' : 'False'
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(v)
  return v
}

export function answerStrings(a: ShapedAnswer): string[] {
  switch (a.kind) {
    case 'none':
      return []
    case 'scalar':
      return a.value === null ? [] : [pyStr(a.value)]
    case 'list':
      return a.items.filter((x) => x !== null).map(pyStr)
    case 'table':
      return a.rows
        .flat()
        .filter((x) => x !== null)
        .map(pyStr)
  }
}
