import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { refusingLoader } from '../../../shared/chart'
import { chartSvg } from './svg'

const SPEC = {
  data: {
    values: [
      { Year: 2010, Sales: 12, Region: 'North' },
      { Year: 2020, Sales: 18, Region: 'North' },
      { Year: 2010, Sales: 7, Region: 'South' },
      { Year: 2020, Sales: 9, Region: 'South' }
    ]
  },
  mark: { type: 'line', tooltip: true, point: true },
  encoding: {
    x: { field: 'Year', type: 'ordinal', title: 'Year' },
    y: { field: 'Sales', type: 'quantitative', title: 'Sales' },
    color: { field: 'Region', type: 'nominal', title: 'Region' }
  },
  title: 'Sales by region'
}

describe('chart images for exports', () => {
  it('draws a chart answer as SVG in Node, with its title, axes and legend', async () => {
    const svg = await chartSvg(SPEC)
    if (!svg.ok) throw new Error(svg.error.message)
    expect(svg.value).toMatch(/^<svg[^>]+width="\d+"/)
    for (const text of ['Sales by region', 'Year', 'North', 'South', '2010', '2020']) expect(svg.value).toContain(`>${text}<`)
    expect(svg.value).not.toMatch(/<script|href=/)
  })

  it('refuses a spec that would load data, and never sends the request', async () => {
    let requests = 0
    const server = createServer((_req, res) => {
      requests++
      res.end('Year,Sales\n2010,1\n')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data.csv`
    try {
      const svg = await chartSvg({ ...SPEC, data: { url } })
      expect(svg.ok).toBe(false)
      // And were a URL to get past the check, Vega's loader would not fetch it.
      await expect(refusingLoader().load(url)).rejects.toThrow('charts load nothing')
      expect(requests).toBe(0)
    } finally {
      server.close()
    }
  })
})
