import type { PanelSpec } from './usePanel'

/**
 * The workspace's panels and where they start. At 1600 × 1000 the defaults leave the grid about
 * 1,060 px (the header tree and sessions open) — room for eight or more data columns of a typical
 * report — and most of the height: the Python panel starts folded to its title bar.
 */
export const PANELS = {
  inspector: { name: 'inspector', open: true, size: 260, min: 220, max: 720, legacyOpenKey: 'tableqa-inspector-open' },
  sessions: { name: 'sessions', open: true, size: 260, min: 220, max: 640 },
  python: { name: 'python', open: false, size: 280, min: 140, max: 720 }
} as const satisfies Record<string, PanelSpec>
