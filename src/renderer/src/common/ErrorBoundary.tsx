import { Component, type ErrorInfo, type ReactNode } from 'react'

type Props = {
  children: ReactNode
  /** Names a part of the window ("table", "output"): the fallback then stays inside that part. */
  area?: string
}
type State = { error: Error | null }

/** Last line of defence: a render error shows what broke and a way back instead of a blank window. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('UI error', error, info.componentStack)
  }

  override render(): ReactNode {
    const { error } = this.state
    if (!error) return this.props.children
    const { area } = this.props
    if (area) {
      return (
        <div className="crash crash-inline" role="alert">
          <p>
            The {area} could not be shown: {error.message}
          </p>
          <button type="button" onClick={() => this.setState({ error: null })}>
            Try again
          </button>
        </div>
      )
    }
    return (
      <div className="crash" role="alert">
        <h1>Something in the window broke</h1>
        <p>Your tables and history are safe. Reloading the window usually brings it back.</p>
        <pre className="stream traceback">{error.stack ?? error.message}</pre>
        <div className="crash-actions">
          <button type="button" className="primary" onClick={() => window.location.reload()}>
            Reload
          </button>
          <button type="button" onClick={() => this.setState({ error: null })}>
            Try to continue
          </button>
        </div>
      </div>
    )
  }
}
