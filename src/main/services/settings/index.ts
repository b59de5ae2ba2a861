export type { EndpointDraft, EndpointView } from './endpoints'
export { ENDPOINT_DEFAULTS, EndpointRegistry, validateEndpoint } from './endpoints'
