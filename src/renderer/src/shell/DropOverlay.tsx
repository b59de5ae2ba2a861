export function DropOverlay(): React.JSX.Element {
  return (
    <div className="drop-overlay" data-testid="drop-overlay" aria-hidden="true">
      <div className="drop-target">Drop the file to open it</div>
    </div>
  )
}
