/**
 * Stages `label-blocks`, `sum-blocks` and `blocks-adjust`: rows that head a block of the rows right below
 * them, for tables of one label column whose source lost the indentation that showed it. The wording of the
 * labels marks some blocks ("other science fields" ends the block of "science"); sums mark others (a row
 * whose parts below add up to it); then blocks are read alike where labels repeat, and a total of totals is
 * kept flat.
 */
import type { RowNumbers } from '../row-numbers'
import { aggregateBlocks, echoBlocks } from '../aggregates'
import type { Grid } from '../grid'
import { namedBlocks, ofWhichBlocks, rangeBlocks, repeatedListBlocks, rowWords } from '../label-cues'
import { regionParts } from '../regions'
import { resultOfRowsAbove } from '../totals'
import { isTotalLabel, type RowRole } from '../rows'
import { applies, byStrength, ranked, type Evidence, type Refiner, type Rule, type Unranked } from './types'
import { labelText } from './row-roles'

export type BlocksContext = {
  g: Grid
  headerRows: number
  headerCols: number
  roles: RowRole[]
  numbers: RowNumbers
  /** The shape of each data or section row's label when it names a period, else null. */
  periods: readonly (string | null)[]
  /** The words of each data row's label, read once for the rules that compare labels. */
  words?: (string[] | null)[]
}

function wordsOf(ctx: BlocksContext): (string[] | null)[] {
  ctx.words ??= rowWords(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles)
  return ctx.words
}

/** Body row `head` heads body rows head+1 … `end` (-1: it heads nothing). */
export type BlockClaim = { head: number; end: number }

type BlockRule = Rule<BlocksContext, BlockClaim>

/** A rule reporting every block of an array of block ends. */
function fromEnds(
  ends: Int32Array,
  message: string,
  report: (f: { claim: BlockClaim; message: string; data?: Record<string, number> }) => void
): void {
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i] ?? -1
    if (end > i) report({ claim: { head: i, end }, message, data: { to: end } })
  }
}

const otherCloses: Unranked<BlockRule> = {
  id: 'block-closed-by-other',
  description: '"other …" names a row a few rows up ("other science fields" after "science"): that row heads the rows down to it.',
  messages: { other: 'heads the rows down to the "other …" row that names it' },
  find: (ctx, report) => fromEnds(namedBlocks(ctx.roles, wordsOf(ctx), 'other'), 'other', report)
}

const complement: Unranked<BlockRule> = {
  id: 'block-before-complement',
  description: '"not a X" or "non-X" after the parts of X ("visible minority" … "not a visible minority"): X heads the rows between.',
  messages: { complement: 'heads the rows up to its complement ("not …", "non-…")' },
  find: (ctx, report) => fromEnds(namedBlocks(ctx.roles, wordsOf(ctx), 'complement'), 'complement', report)
}

const repeatedList: Unranked<BlockRule> = {
  id: 'block-repeated-list',
  description:
    'The same list of labels after each of several different rows ("18 to 39 | males | females | 40 to 59 | males | females"): each heads its list.',
  messages: { list: 'heads a list of labels repeated under other rows' },
  find: (ctx, report) => fromEnds(repeatedListBlocks(ctx.roles, wordsOf(ctx)), 'list', report)
}

const ofWhich: Unranked<BlockRule> = {
  id: 'block-of-which',
  description: 'Rows labelled "of which …", "of whom …", "including …" are parts of the row above them.',
  messages: { parts: 'heads the "of which" rows below it' },
  find: (ctx, report) => fromEnds(ofWhichBlocks(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles), 'parts', report)
}

const ranges: Unranked<BlockRule> = {
  id: 'block-range-divided',
  description: 'A row whose range the rows right after it divide without gaps ("15 or older" over "15 to 24 | 25 to 54 | 55 and older").',
  messages: { range: 'its range is divided by the rows below it' },
  find: (ctx, report) => fromEnds(rangeBlocks(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles), 'range', report)
}

export const LABEL_BLOCK_RULES: readonly BlockRule[] = ranked<BlockRule>([otherCloses, complement, repeatedList, ofWhich, ranges])

/** Block ends per body row (-1: none) and the evidence of each block. */
export type BlocksAnswer = { ends: Int32Array; evidence: Map<number, Evidence<BlockClaim>> }

/** Stage label-blocks: where several rules see a block at one row, the longest. */
export function resolveLabelBlocks(ctx: BlocksContext, rules: readonly BlockRule[] = LABEL_BLOCK_RULES): BlocksAnswer {
  const ends = new Int32Array(ctx.roles.length).fill(-1)
  const evidence = new Map<number, Evidence<BlockClaim>>()
  for (const rule of rules) {
    if (!applies(rule, ctx)) continue
    rule.find(ctx, (f) => {
      const { head, end } = f.claim
      if (end <= (ends[head] ?? -1) && !(end === ends[head] && rule.id < (evidence.get(head)?.rule ?? ''))) return
      ends[head] = end
      evidence.set(head, { rule: rule.id, claim: f.claim, strength: rule.strength, message: f.message, data: f.data })
    })
  }
  return { ends, evidence }
}

type BlockRefiner = Refiner<BlocksContext, BlocksAnswer, BlockClaim>

const sums: Unranked<BlockRefiner> = {
  id: 'block-sum-of-parts',
  description:
    'A row whose top-level members below it add up to it in the numeric columns (a member that heads a block counts once) heads them; columns whose total lies among its parts (rates) count as neither.',
  messages: { sum: 'the rows below it add up to it' },
  refine(ctx, answer, report) {
    const found = aggregateBlocks(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles, ctx.numbers, ctx.periods, answer.ends)
    for (let i = 0; i < found.length; i++)
      if (found[i] !== answer.ends[i]) report({ claim: { head: i, end: found[i] ?? -1 }, message: 'sum', data: { to: found[i] ?? -1 } })
  }
}

const echo: Unranked<BlockRefiner> = {
  id: 'block-alike-elsewhere',
  description:
    'The same run of labels elsewhere in the table nests the same way (growth rates listed under the same industries as the sums).',
  messages: { echo: 'the same labels nest this way elsewhere in the table' },
  refine(ctx, answer, report) {
    const copy = echoBlocks(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles, answer.ends.slice())
    for (let i = 0; i < copy.length; i++)
      if (copy[i] !== answer.ends[i]) report({ claim: { head: i, end: copy[i] ?? -1 }, message: 'echo', data: { to: copy[i] ?? -1 } })
  }
}

const totalsOfTotals: Unranked<BlockRefiner> = {
  id: 'block-totals-side-by-side',
  description:
    'A total whose parts are all totals heading parts of their own ("total drug offences" over "total cannabis offences") is their sibling.',
  messages: { flat: 'a total of totals that head parts of their own: beside them' },
  refine(ctx, { ends }, report) {
    const total = (i: number): boolean => isTotalLabel(labelText(ctx.g, ctx.headerRows + i, ctx.headerCols))
    for (let i = 0; i < ends.length; i++) {
      const end = ends[i] ?? -1
      if (end <= i || !total(i)) continue
      let all = true
      for (let k = i + 1; k <= end && all; k = Math.max(k, ends[k] ?? -1) + 1) all = (ends[k] ?? -1) > k && total(k)
      if (all) report({ claim: { head: i, end: -1 }, message: 'flat' })
    }
  }
}

const regions: Unranked<BlockRefiner> = {
  id: 'block-country-regions',
  description:
    'A country heads the run of its regions right below it, three or more (knowledge: places.json, ISO 3166), where the sums found no block.',
  messages: { regions: 'a country over its regions' },
  refine(ctx, { ends }, report) {
    const copy = ends.slice()
    regionParts(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles, copy)
    for (let i = 0; i < copy.length; i++)
      if (copy[i] !== ends[i]) report({ claim: { head: i, end: copy[i] ?? -1 }, message: 'regions', data: { to: copy[i] ?? -1 } })
  }
}

const resultLines: Unranked<BlockRefiner> = {
  id: 'block-result-line',
  description:
    'A row outside every block that is worked out from the rows right above it, their sum or the first less the others in every column ("gross profit" after "net sales | cost of sales"), is a result line: the rows below that happen to add up to it are not its parts. Inside a block, such a row is a part ("not a visible minority" under the total).',
  messages: { result: 'the result of the rows right above it, not the total of the rows below' },
  refine(ctx, { ends, evidence }, report) {
    // The last row the blocks kept above each row reach.
    let reach = -1
    for (let i = 0; i < ends.length; i++) {
      const end = ends[i] ?? -1
      if (end <= i) continue
      const result = reach < i && evidence.get(i)?.rule === 'block-sum-of-parts' && resultOfRowsAbove(ctx.numbers, ctx.roles, i)
      if (result) report({ claim: { head: i, end: -1 }, message: 'result' })
      else reach = Math.max(reach, end)
    }
  }
}

export const BLOCK_REFINERS: readonly BlockRefiner[] = ranked<BlockRefiner>([sums, resultLines, echo, totalsOfTotals, regions])

/**
 * Blocks from the wording of labels, then refined: the sums (stage sum-blocks, which take the label blocks as
 * members), then the stronger adjustment first.
 */
export function resolveBlocks(ctx: BlocksContext, refiners: readonly BlockRefiner[] = BLOCK_REFINERS): BlocksAnswer {
  const answer = resolveLabelBlocks(ctx)
  for (const refiner of byStrength(refiners)) {
    if (!applies(refiner, ctx)) continue
    const changes: Evidence<BlockClaim>[] = []
    refiner.refine(ctx, answer, (f) =>
      changes.push({ rule: refiner.id, claim: f.claim, strength: refiner.strength, message: f.message, data: f.data })
    )
    for (const e of changes) {
      answer.ends[e.claim.head] = e.claim.end
      if (e.claim.end < 0) answer.evidence.delete(e.claim.head)
      else answer.evidence.set(e.claim.head, e)
    }
  }
  return answer
}
