import { describe, expect, it } from 'vitest'
import type { QuestionForm } from './question-form'
import { QUESTION_FORMS, isQuestionForm, namedAlternatives, questionForm } from './question-form'

// Questions written for these tests; none is taken from a dataset.
const cases: Record<QuestionForm, string[]> = {
  lookup: [
    'what was the attendance at the opening concert?',
    'who coached the team in 1987?',
    'which rider finished directly after the champion?',
    'when did the bridge reopen?',
    'how much did the ticket cost in 2015?',
    'what does the code XR mean?',
    'what was the profit margin in 2019?',
    'what was the revenue in the first quarter of 2021?',
    'what is the last name of the goalkeeper?'
  ],
  difference: [
    'how many more goals did the visitors score than the hosts?',
    'how much longer is the north runway than the south one?',
    'by how much did rainfall change between March and April?',
    'what is the difference between the two heaviest parcels?',
    'by how many percentage points did the turnout fall?',
    'what is the gap in price between the cheapest and the dearest room?',
    'how did the membership change from 2010 to 2012?',
    'did the museum get more visitors than the aquarium?',
    'what was the increase in ridership after the new line opened?',
    'how much revenue did the shop make in May compared to June?'
  ],
  ratio: [
    'what percentage of the seats went to independents?',
    'what share of the harvest was exported?',
    'what is the ratio of boys to girls in the choir?',
    'what proportion of the flights left on time?',
    'what was the percentage change in sales from 2018 to 2019?',
    'how many times as many visitors came in July as in May?',
    'what was the unemployment rate in the capital?'
  ],
  count: [
    'how many ferries leave before noon?',
    'how many branches hold more than 30,000 books?',
    'how many trains take at least 45 minutes?',
    'what is the number of bridges built of stone?',
    'how many different countries sent a delegation?',
    'how many times did the club win the cup?',
    'how often did the river flood?'
  ],
  superlative: [
    'which lake is the deepest?',
    'who finished fastest in the sprint?',
    'in which year were the most goals scored?',
    'which category had the largest share of the budget?',
    'what is the title of the longest song?',
    'which team scored the most points in total?',
    'who finished first in the relay?',
    'which town is the hottest in August?',
    'who was the top scorer of the season?'
  ],
  aggregate: [
    'how many seats did the two parties win in total?',
    'what is the average length of the tunnels?',
    'what was the total value of imports in 2020?',
    'what were the total sales in 2019?',
    'what is the mean height of the towers?',
    'how many medals did the two neighbours win combined?',
    'what is the sum of the first and second prizes?'
  ],
  list: [
    'list the stations that opened after 1990.',
    'name all the rivers that cross the border.',
    'which teams were founded before 1900?',
    'in which years were elections held?',
    'who were the founding members of the club?',
    'for each region, how many schools are there?',
    'list the three largest cities.'
  ],
  choice: [
    'which team scored more goals, the visitors or the hosts?',
    'who was older when elected, the mayor or her deputy?',
    'which region had the larger share of exports in 2020, north or south?',
    'in which year was the harvest bigger: 2019 or 2020?',
    'after the merger, which bank had more branches, Alder or Birch?',
    'which group had a bigger gap between the two surveys, renters or owners?'
  ]
}

describe('question form', () => {
  for (const form of QUESTION_FORMS) {
    it(`reads ${form} questions`, () => {
      for (const q of cases[form]) expect(questionForm(q), q).toBe(form)
    })
  }

  it('ignores case, curly quotes and spacing', () => {
    expect(questionForm('  HOW MANY   more  \u201cgold\u201d medals did the hosts win than the guests?')).toBe('difference')
    expect(questionForm('What\u2019s the Highest peak?')).toBe('superlative')
  })

  it('falls back to lookup for a question with no cue, and an empty one', () => {
    expect(questionForm('who painted the mural?')).toBe('lookup')
    expect(questionForm('')).toBe('lookup')
  })

  it('does not take common -est words, "at least" or "at most" for superlatives', () => {
    expect(questionForm('which village lies in the west?')).toBe('lookup')
    expect(questionForm('what was the interest paid in 2019?')).toBe('lookup')
    expect(questionForm('how many clubs have at most 20 members?')).toBe('count')
  })

  it('takes "or" for alternatives only at the end, after a comma, in a which or who question', () => {
    for (const q of [
      // An amount's bound is no alternative.
      'which clubs have 20 members or more?',
      'which of the towns, with 65 or over, voted?',
      'who, aged 30 or older, scored?',
      // No comma before the alternatives, or no which/who: left to the other rules.
      'which was longer the bridge or the tunnel?',
      'did the hosts score more, or the visitors?',
      'what is bigger, the lake or the bay?'
    ])
      expect(questionForm(q), q).not.toBe('choice')
  })

  it('names the alternatives of a choice, without articles, also in a list of three', () => {
    expect(namedAlternatives('Which team scored more goals, the Visitors or the Hosts?')).toEqual(['visitors', 'hosts'])
    expect(namedAlternatives('in which year was the harvest bigger: 2019 or 2020?')).toEqual(['2019', '2020'])
    expect(namedAlternatives('which river is longest, the Nile, the Amazon, or the Congo?')).toEqual(['nile', 'amazon', 'congo'])
    expect(namedAlternatives('after the merger, which bank had more branches, Alder or Birch?')).toEqual(['alder', 'birch'])
    for (const q of ['which clubs have 20 members or more?', 'what is bigger, the lake or the bay?', 'who won?'])
      expect(namedAlternatives(q), q).toEqual([])
  })

  it('knows its forms', () => {
    expect(isQuestionForm('ratio')).toBe(true)
    expect(isQuestionForm('median')).toBe(false)
    expect(isQuestionForm(3)).toBe(false)
  })
})
