import { SaxesParser } from 'saxes'

export type XmlAttrs = Record<string, string>

/** Element callbacks with namespace prefixes stripped from element names (`x:c` and `c` alike). */
export type XmlHandlers = {
  open?: (local: string, attrs: XmlAttrs, selfClosing: boolean) => void
  text?: (text: string) => void
  close?: (local: string) => void
}

function localName(qname: string): string {
  const colon = qname.indexOf(':')
  return colon < 0 ? qname : qname.slice(colon + 1)
}

/** An attribute by local name, whatever prefix the producer chose. */
export function attr(attrs: XmlAttrs, local: string): string | undefined {
  const direct = attrs[local]
  if (direct !== undefined) return direct
  for (const key in attrs) {
    if (key.endsWith(':' + local)) return attrs[key]
  }
  return undefined
}

const CHUNK = 1 << 20

/** Stream an XML document through saxes. Throws on malformed XML (callers turn that into data). */
export function walkXml(xml: string, handlers: XmlHandlers): void {
  const parser = new SaxesParser({ xmlns: false, position: false })
  const { open, text, close } = handlers
  if (open !== undefined) parser.on('opentag', (tag) => open(localName(tag.name), tag.attributes, tag.isSelfClosing))
  if (text !== undefined) {
    parser.on('text', text)
    parser.on('cdata', text)
  }
  if (close !== undefined) parser.on('closetag', (tag) => close(localName(tag.name)))
  parser.on('error', (err) => {
    throw err
  })
  for (let k = 0; k < xml.length; k += CHUNK) parser.write(xml.slice(k, k + CHUNK))
  parser.close()
}
