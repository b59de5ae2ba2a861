import { colorSchemeDark, colorSchemeLight, themeQuartz } from 'ag-grid-community'

// Narrow cell padding: more columns of figures fit on screen.
const shared = { fontSize: 13, headerFontWeight: 600, spacing: 4, wrapperBorderRadius: 0, cellHorizontalPadding: 6 } as const

export const lightGridTheme = themeQuartz.withPart(colorSchemeLight).withParams(shared)
export const darkGridTheme = themeQuartz.withPart(colorSchemeDark).withParams(shared)
