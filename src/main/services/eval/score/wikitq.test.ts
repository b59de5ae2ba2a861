import { describe, expect, it } from 'vitest'
import { normalizeString } from './normalize'
import {
  checkDenotation,
  parsePyNumber,
  parseWtqDate,
  printedNumberCanon,
  toValue,
  toValueList,
  tsvUnescapeList,
  wikitqCorrect
} from './wikitq'

describe('WikiTQ string normalisation', () => {
  it('drops diacritics and unifies quotes and dashes', () => {
    expect(normalizeString('Café')).toBe('cafe')
    expect(normalizeString('‘a’ “b” 1–2 3—4 5−6')).toBe(`'a' "b" 1-2 3-4 5-6`)
  })
  it('removes trailing citations, parenthesised details and surrounding quotes until stable', () => {
    expect(normalizeString('Norway[1]')).toBe('norway')
    expect(normalizeString('Norway [a][b]†*')).toBe('norway')
    expect(normalizeString('[1]')).toBe('')
    expect(normalizeString('[note]')).toBe('[note]')
    expect(normalizeString('Paris (France)')).toBe('paris')
    expect(normalizeString('(France)')).toBe('(france)')
    expect(normalizeString('Paris(France)')).toBe('paris(france)')
    expect(normalizeString('"Hello" (song)[2]')).toBe('hello')
  })
  it('drops one final period, collapses whitespace and lower-cases', () => {
    expect(normalizeString('  Jr..  ')).toBe('jr.')
    expect(normalizeString('New\n  York')).toBe('new york')
  })
})

describe('WikiTQ value typing', () => {
  it('reads numbers as Python int() then float() does, refusing separators, NaN and infinities', () => {
    expect(parsePyNumber(' 12 ')).toBe(12)
    expect(parsePyNumber('1e3')).toBe(1000)
    expect(parsePyNumber('.5')).toBe(0.5)
    expect(parsePyNumber('1,000')).toBeNull()
    expect(parsePyNumber('$5')).toBeNull()
    expect(parsePyNumber('nan')).toBeNull()
    expect(parsePyNumber('inf')).toBeNull()
  })
  it('reads dates with xx placeholders and checks month and day ranges', () => {
    expect(parseWtqDate('xxxx-10-17')).toEqual([-1, 10, 17])
    expect(parseWtqDate('1990-xx-xx')).toEqual([1990, -1, -1])
    expect(parseWtqDate('xx-xx-xx')).toBeNull()
    expect(parseWtqDate('1990-13-01')).toBeNull()
    expect(parseWtqDate('1990-01-32')).toBeNull()
    expect(parseWtqDate('1990-01')).toBeNull()
  })
  it('turns a year-only date into the number of that year and keeps near-integers as integers', () => {
    expect(toValue('1990', '1990-xx-xx')).toMatchObject({ kind: 'number', amount: 1990 })
    expect(toValue('3.0000001')).toMatchObject({ kind: 'number', amount: 3 })
    expect(toValue('Oct 17', 'xxxx-10-17')).toMatchObject({ kind: 'date', year: -1, month: 10, day: 17, normalized: 'oct 17' })
  })
  it('collapses duplicates into a set', () => {
    expect(toValueList(['2', '2.0', 'a', 'A.'])).toHaveLength(2)
  })
})

describe('WikiTQ matching', () => {
  it('uses the canonical form for the type: 100,000 with canon 100000.0 accepts 100000', () => {
    expect(wikitqCorrect(['100,000'], ['100000.0'], ['100000'])).toBe(true)
    expect(wikitqCorrect(['100,000'], null, ['100000'])).toBe(false)
    expect(wikitqCorrect(['100,000'], null, ['100,000'])).toBe(true)
  })
  it('matches numbers within 1e-6 and by normalised text', () => {
    expect(wikitqCorrect(['2'], null, ['2.0000001'])).toBe(true)
    expect(wikitqCorrect(['2'], null, ['2.001'])).toBe(false)
    expect(wikitqCorrect(['Italy'], null, ['italy'])).toBe(true)
  })
  it('needs equal set sizes and every gold item matched, in any order', () => {
    expect(wikitqCorrect(['a', 'b'], null, ['B', 'a'])).toBe(true)
    expect(wikitqCorrect(['a', 'b'], null, ['a'])).toBe(false)
    expect(wikitqCorrect(['a'], null, ['a', 'a'])).toBe(true)
    expect(wikitqCorrect(['a'], null, [])).toBe(false)
  })
  it('matches dates by year, month and day, unknown parts included', () => {
    const gold = [toValue('January 12', 'xxxx-01-12')]
    expect(checkDenotation(gold, [toValue('Jan 12', 'xxxx-01-12')])).toBe(true)
    expect(checkDenotation(gold, [toValue('1990-01-12')])).toBe(false)
  })
  it('never matches a number with a date except through equal text', () => {
    expect(checkDenotation([toValue('2001', '2001.0')], [toValue('2001-01-01')])).toBe(false)
  })
  it('unescapes TSV lists', () => {
    expect(tsvUnescapeList('a\\pb|c\\nd|e\\\\f')).toEqual(['a|b', 'c\nd', 'e\\f'])
  })
})

describe('numbers printed as in financial reports', () => {
  it('reads separators, currency, cent and percent signs, minus signs and accounting parentheses', () => {
    expect(printedNumberCanon('1,114')).toBe('1114')
    expect(printedNumberCanon('$2,129')).toBe('2129')
    expect(printedNumberCanon('13.33¢')).toBe('13.33')
    expect(printedNumberCanon('0.5%')).toBe('0.5')
    expect(printedNumberCanon('4.9 %')).toBe('4.9')
    expect(printedNumberCanon('(1,844)')).toBe('-1844')
    expect(printedNumberCanon('( 689 )')).toBe('-689')
    expect(printedNumberCanon('(0.5)%')).toBe('-0.5')
    expect(printedNumberCanon('($3.10)')).toBe('-3.10')
    expect(printedNumberCanon('$(3.10)')).toBe('-3.10')
    expect(printedNumberCanon('−7')).toBe('-7')
    expect(printedNumberCanon('(0)')).toBe('0')
    expect(printedNumberCanon('13.00')).toBe('13.00')
  })
  it('refuses text, misplaced separators, placeholders and doubled signs', () => {
    expect(printedNumberCanon('June 2019')).toBeNull()
    expect(printedNumberCanon('Pilots')).toBeNull()
    expect(printedNumberCanon('—%')).toBeNull()
    expect(printedNumberCanon('1,00')).toBeNull()
    expect(printedNumberCanon('12,3456')).toBeNull()
    expect(printedNumberCanon('-(5)')).toBeNull()
    expect(printedNumberCanon('((5))')).toBeNull()
    expect(printedNumberCanon('$')).toBeNull()
    expect(printedNumberCanon('')).toBeNull()
  })
  it('lets a gold with such a canonical form match the number and still the printed text', () => {
    const gold = ['$2,129']
    const canon = gold.map((g) => printedNumberCanon(g) ?? g)
    expect(wikitqCorrect(gold, canon, ['2129'])).toBe(true)
    expect(wikitqCorrect(gold, canon, ['2129.0'])).toBe(true)
    expect(wikitqCorrect(gold, canon, ['$2,129'])).toBe(true)
    expect(wikitqCorrect(gold, canon, ['2130'])).toBe(false)
    expect(wikitqCorrect(gold, null, ['2129'])).toBe(false)
    expect(wikitqCorrect(['(0.5)%'], ['-0.5'], ['-0.5'])).toBe(true)
    expect(wikitqCorrect(['(0.5)%'], ['-0.5'], ['0.5'])).toBe(false)
  })
})
