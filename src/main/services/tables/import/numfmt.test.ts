import { describe, expect, it } from 'vitest'
import { formatNumber, generalNumber } from './numfmt'

describe('formatNumber', () => {
  it.each([
    [1234, 'General', '1234'],
    [0.1 + 0.2, 'General', '0.3'],
    [1234.567, '#,##0.00', '1,234.57'],
    [1234.5, '0', '1235'],
    [-1234, '#,##0 ;(#,##0)', '(1,234)'],
    [-1234, '#,##0', '-1,234'],
    [0.256, '0.0%', '25.6%'],
    [12345, '0.00E+00', '1.23E+04'],
    [5, '"$"#,##0.00', '$5.00'],
    [-5, '[Red]#,##0.0', '-5.0'],
    [1_500_000, '#,##0,,"M"', '2M'],
    [0, '#,##0;-#,##0;"-"', '-'],
    [43831, 'm/d/yyyy', '1/1/2020'],
    [43831, 'mmm-yy', 'Jan-20'],
    [43831.5, 'yyyy-mm-dd hh:mm:ss', '2020-01-01 12:00:00'],
    [0.75, 'h:mm AM/PM', '6:00 PM'],
    [0.5, '# ?/?', '0.5'],
    [42, '@', '42']
  ])('%d with %j shows %j', (v, code, shown) => {
    expect(formatNumber(v, code)).toBe(shown)
  })

  it('uses the 1904 date system when the workbook says so', () => {
    expect(formatNumber(0, 'yyyy-mm-dd', true)).toBe('1904-01-01')
  })

  it('keeps integers without a decimal part in General', () => {
    expect(generalNumber(2016)).toBe('2016')
    expect(generalNumber(-0.5)).toBe('-0.5')
  })
})
