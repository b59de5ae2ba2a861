import type { EventName, EventSpec } from '../../shared/api'

type Listener = <E extends EventName>(event: E, payload: EventSpec[E]) => void

/** Push events from services to whichever transport is attached (IPC or server-sent events). */
export class EventBus {
  private readonly listeners = new Set<Listener>()

  emit<E extends EventName>(event: E, payload: EventSpec[E]): void {
    for (const listener of this.listeners) listener(event, payload)
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
