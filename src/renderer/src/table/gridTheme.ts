import { colorSchemeDark, colorSchemeLight, themeQuartz } from 'ag-grid-community'

const shared = { fontSize: 13, headerFontWeight: 600, spacing: 4, wrapperBorderRadius: 0 } as const

export const lightGridTheme = themeQuartz.withPart(colorSchemeLight).withParams(shared)
export const darkGridTheme = themeQuartz.withPart(colorSchemeDark).withParams(shared)
