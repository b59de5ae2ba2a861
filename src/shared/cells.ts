/** Spreadsheet column letters of a 0-based column: 0 → "A", 25 → "Z", 26 → "AA". */
export function columnLetters(col: number): string {
  let letters = ''
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters
  return letters
}

/** A1 name of a 0-based cell: (0, 0) → "A1", (11, 27) → "AB12". */
export function a1Name(row: number, col: number): string {
  return `${columnLetters(col)}${row + 1}`
}
