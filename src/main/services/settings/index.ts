export type { EndpointDraft, EndpointView } from './endpoints'
export { ENDPOINT_DEFAULTS, EndpointRegistry, validateEndpoint } from './endpoints'

/** Name of the settings store file (`<dataDir>/settings.json`) that holds the endpoint registry. */
export const SETTINGS_STORE = 'settings'
export { BUILTIN_ID, BUILTIN_NAME, builtinConfig, builtinSettings, promptBudget } from './builtin-endpoint'
