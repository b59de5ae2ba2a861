import type { AskOptions } from '../../../shared/ask'
import type { AppSettings } from '../../../shared/settings'

/** The options a question is asked with by default: sampling, selection and run time limit from the app settings. */
export function askOptions(settings: AppSettings): AskOptions {
  const { n, temperature, selection, score } = settings.sampling
  return { n, temperature, selection, score, timeoutMs: settings.timeouts.runMs }
}
