/** Handlers of the built-in model's channels: the models view, downloads, and using a file already on disk. */

import type { Handlers } from '../../shared/api'
import { fail, ok } from '../../shared/result'
import type { BuiltinModel } from '../services/local-model'
import { importModelFile } from '../services/local-model/import-file'
import type { EndpointRegistry } from '../services/settings'

type ModelChannel = 'models:list' | 'models:download' | 'models:pause' | 'models:cancel' | 'models:useFile'

export type ModelHandlerDeps = {
  builtin: BuiltinModel
  registry: EndpointRegistry
  /** The desktop app's file dialog for a .gguf file; null in browser mode (the path is typed). */
  pickModelFile: (() => Promise<string | null>) | null
}

export function createModelHandlers(deps: ModelHandlerDeps): Pick<Handlers, ModelChannel> {
  const { builtin } = deps
  return {
    'models:list': () => Promise.resolve(ok(builtin.view())),
    'models:download': (request) => Promise.resolve(builtin.downloads.start(String(request?.id ?? ''))),
    'models:pause': (request) => builtin.downloads.pause(String(request?.id ?? '')),
    'models:cancel': (request) => builtin.downloads.cancel(String(request?.id ?? '')),
    'models:useFile': async (request) => {
      let path = typeof request?.path === 'string' ? request.path.trim() : ''
      if (path === '') {
        if (deps.pickModelFile === null) return fail('bad-input', 'Type the path of the GGUF file on this computer.')
        const picked = await deps.pickModelFile()
        if (picked === null) return ok(null)
        path = picked
      }
      const imported = await importModelFile(path, builtin.models, { copy: request?.copy === true })
      if (!imported.ok) return imported
      const saved = await deps.registry.save({ kind: 'builtin', builtin: { modelFile: imported.value.model.file } })
      return saved.ok ? ok(imported.value.model) : saved
    }
  }
}
