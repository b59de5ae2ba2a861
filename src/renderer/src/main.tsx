import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AllCommunityModule, ModuleRegistry } from 'ag-grid-community'
import { api } from './api'
import { App } from './App'
import { ErrorBoundary } from './common/ErrorBoundary'
import { ApiContext } from './api/context'
import { StudioProvider } from './question/studio'
import './styles.css'

ModuleRegistry.registerModules([AllCommunityModule])

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

createRoot(root).render(
  <StrictMode>
    <ErrorBoundary>
      <ApiContext value={api}>
        <StudioProvider>
          <App />
        </StudioProvider>
      </ApiContext>
    </ErrorBoundary>
  </StrictMode>
)
