/** A one-line progress bar with rate and ETA, redrawn in place on a terminal, printed every 5 % otherwise. */
export type Progress = { tick(correct: boolean): void; done(): void }

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?'
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

export function progressBar(
  total: number,
  label: string,
  stream: NodeJS.WriteStream = process.stderr,
  now: () => number = Date.now
): Progress {
  const start = now()
  let finished = 0
  let correct = 0
  let lastStep = -1
  const line = (): string => {
    const width = 24
    const filled = total === 0 ? width : Math.round((finished / total) * width)
    const elapsed = (now() - start) / 1000
    const rate = elapsed > 0 ? finished / elapsed : 0
    const eta = rate > 0 ? (total - finished) / rate : Number.POSITIVE_INFINITY
    const ea = finished > 0 ? ((100 * correct) / finished).toFixed(1) : '-'
    return `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${finished}/${total} EA ${ea}% ${rate.toFixed(2)} q/s ETA ${duration(eta)}`
  }
  const draw = (): void => {
    if (stream.isTTY) {
      stream.write(`\r${line()}\u001b[K`)
      return
    }
    const step = total === 0 ? 20 : Math.floor((finished / total) * 20)
    if (step !== lastStep) {
      lastStep = step
      stream.write(`${line()}\n`)
    }
  }
  draw()
  return {
    tick(ok) {
      finished++
      if (ok) correct++
      draw()
    },
    done() {
      if (stream.isTTY) stream.write('\n')
    }
  }
}
