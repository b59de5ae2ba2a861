import { describe, expect, it } from 'vitest'
import { orderMatters, postprocessPrediction, removeDistinct, replaceCurrentYear, resultsEquivalent } from './spider'

describe('Spider query clean-up', () => {
  it('replaces every substring "value" by 1 in the prediction, identifiers included', () => {
    expect(postprocessPrediction("SELECT name FROM t WHERE a = 'value'")).toBe("SELECT name FROM t WHERE a = '1'")
    expect(postprocessPrediction('SELECT max_value FROM t')).toBe('SELECT max_1 FROM t')
    expect(postprocessPrediction('SELECT Value FROM t')).toBe('SELECT Value FROM t')
  })
  it('closes up spaced comparison operators', () => {
    expect(postprocessPrediction('a > = 1 AND b < = 2 AND c ! = 3')).toBe('a >= 1 AND b <= 2 AND c != 3')
  })
  it('removes DISTINCT keywords but not quoted text', () => {
    expect(removeDistinct('SELECT DISTINCT name FROM t')).toBe('SELECT  name FROM t')
    expect(removeDistinct("SELECT count(distinct a) FROM t WHERE b = 'distinct'")).toBe("SELECT count( a) FROM t WHERE b = 'distinct'")
    expect(removeDistinct('SELECT distinctive FROM t')).toBe('SELECT distinctive FROM t')
  })
  it('replaces YEAR(CURDATE()) by 2020', () => {
    expect(replaceCurrentYear('SELECT YEAR ( CURDATE ( ) ) - age')).toBe('SELECT 2020- age')
  })
  it('counts row order only when the gold query has ORDER BY', () => {
    expect(orderMatters('select a from t Order By a')).toBe(true)
    expect(orderMatters('select a from t')).toBe(false)
  })
})

describe('Spider result equivalence', () => {
  it('treats two empty results as equal', () => {
    expect(resultsEquivalent([], [], false)).toBe(true)
  })
  it('needs the same numbers of rows and columns', () => {
    expect(resultsEquivalent([[1]], [[1], [1]], false)).toBe(false)
    expect(resultsEquivalent([[1, 2]], [[1]], false)).toBe(false)
  })
  it('accepts any permutation of the prediction columns', () => {
    expect(
      resultsEquivalent(
        [
          [1, 'a'],
          [2, 'b']
        ],
        [
          ['a', 1],
          ['b', 2]
        ],
        false
      )
    ).toBe(true)
    expect(resultsEquivalent([[1, 1, 2]], [[2, 1, 1]], true)).toBe(true)
  })
  it('compares rows as a multiset unless order matters', () => {
    expect(resultsEquivalent([[1], [2]], [[2], [1]], false)).toBe(true)
    expect(resultsEquivalent([[1], [2]], [[2], [1]], true)).toBe(false)
    expect(resultsEquivalent([[1], [1], [2]], [[1], [2], [2]], false)).toBe(false)
  })
  it('uses Python equality: 1 equals 1.0 but not "1"; NULL equals NULL', () => {
    expect(resultsEquivalent([[1]], [[1.0]], false)).toBe(true)
    expect(resultsEquivalent([[1]], [['1']], false)).toBe(false)
    expect(resultsEquivalent([[null]], [[null]], false)).toBe(true)
  })
  it('does not let one permutation per row stand in for a single column permutation', () => {
    expect(
      resultsEquivalent(
        [
          [1, 2],
          [3, 4]
        ],
        [
          [1, 2],
          [4, 3]
        ],
        false
      )
    ).toBe(false)
  })
})
