import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { assertNever } from '../../../../shared/result'
import { datasetsDir } from '../../paths'
import type { DatasetId, EvalDataset, Split } from '../types'
import { loadAitqa } from './aitqa'
import { loadHitab } from './hitab'
import { loadSpider } from './spider'
import { loadWikitq } from './wikitq'

/** The datasets folder: `--data DIR`, else $TABLEQA_DATA, else ../shared/datasets beside the checkout. */
export function resolveDataDir(flag?: string): string {
  const dir = flag ? resolve(flag) : datasetsDir()
  if (!existsSync(dir)) throw new Error(`No datasets folder at ${dir}; pass --data DIR or set TABLEQA_DATA.`)
  return dir
}

export function loadDataset(id: DatasetId, split: Split, root: string): EvalDataset {
  switch (id) {
    case 'wikitq':
      return loadWikitq(root, split)
    case 'hitab':
      return loadHitab(root, split)
    case 'aitqa':
      return loadAitqa(root, split)
    case 'spider':
      return loadSpider(root, split)
    default:
      return assertNever(id)
  }
}
