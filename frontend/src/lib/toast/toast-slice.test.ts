import { describe, expect, it } from 'vitest'
import {
  defaultToastDuration,
  toastAdded,
  toastDismissed,
  toastExited,
  toastSlice,
  type ToastInput,
} from './toast-slice.ts'

/** Drives the toast reducer the way the Toaster and `toast()` do. */
function toastQueue() {
  let state = toastSlice.reducer(undefined, { type: 'init' })
  return {
    get state() {
      return state
    },
    add(input: ToastInput): string {
      const action = toastAdded(input)
      state = toastSlice.reducer(state, action)
      return action.payload.id
    },
    dismiss(id: string) {
      state = toastSlice.reducer(state, toastDismissed(id))
    },
    exited(id: string) {
      state = toastSlice.reducer(state, toastExited(id))
    },
    /** Dismisses the toast on screen and lets its exit animation finish. */
    closeVisible() {
      const id = state.visible?.id
      if (!id) throw new Error('no toast on screen')
      this.dismiss(id)
      this.exited(id)
    },
  }
}

describe('toast queue', () => {
  it('shows one toast at a time: a new one replaces the one on screen', () => {
    const queue = toastQueue()
    const first = queue.add({ title: 'Word Added' })
    expect(queue.state.visible?.title).toBe('Word Added')
    expect(queue.state.open).toBe(true)

    queue.add({ title: 'Hidden' })
    queue.add({ title: 'Export Failed', variant: 'destructive' })
    // The old one leaves; only the newest is waiting to follow it.
    expect(queue.state.open).toBe(false)
    expect(queue.state.waiting.map((t) => t.title)).toEqual(['Export Failed'])
    queue.exited(first)
    expect(queue.state.visible?.title).toBe('Export Failed')
    expect(queue.state.open).toBe(true)
  })

  it('shows the next toast only after the dismissed one has left the screen', () => {
    const queue = toastQueue()
    const first = queue.add({ title: 'First' })
    queue.add({ title: 'Second' })

    queue.dismiss(first)
    expect(queue.state.open).toBe(false)
    expect(queue.state.visible?.title).toBe('First')

    queue.exited(first)
    expect(queue.state.visible?.title).toBe('Second')
    expect(queue.state.open).toBe(true)
    expect(queue.state.waiting).toEqual([])
  })

  it('empties the screen when the last toast is dismissed', () => {
    const queue = toastQueue()
    queue.add({ title: 'Only' })
    queue.closeVisible()
    expect(queue.state.visible).toBeNull()
    expect(queue.state.open).toBe(false)
  })

  it('keeps each toast’s own duration and defaults to five seconds', () => {
    const queue = toastQueue()
    queue.add({ title: 'Saved', variant: 'success' })
    queue.add({ title: 'Playback stopped', duration: 3000 })

    expect(queue.state.visible?.duration).toBe(defaultToastDuration)
    expect(defaultToastDuration).toBe(5000)
    queue.closeVisible()
    expect(queue.state.visible?.title).toBe('Playback stopped')
    expect(queue.state.visible?.duration).toBe(3000)
  })

  it('drops a waiting toast that is dismissed before its turn', () => {
    const queue = toastQueue()
    queue.add({ title: 'On screen' })
    const waiting = queue.add({ title: 'Never shown' })
    queue.add({ title: 'Third' })

    queue.dismiss(waiting)
    expect(queue.state.visible?.title).toBe('On screen')
    queue.closeVisible()
    expect(queue.state.visible?.title).toBe('Third')
  })

  it('ignores a repeat of a toast that is on screen or waiting', () => {
    const queue = toastQueue()
    queue.add({ title: 'Playback stopped', description: 'Gestalt selection changed' })
    queue.add({ title: 'Playback stopped', description: 'Gestalt selection changed' })
    queue.add({ title: 'Playback stopped', description: 'Frequency changed' })
    queue.add({ title: 'Playback stopped', description: 'Frequency changed' })

    expect(queue.state.waiting.map((t) => t.description)).toEqual(['Frequency changed'])
  })

  it('ignores an exit event for a toast that is not the one leaving', () => {
    const queue = toastQueue()
    queue.add({ title: 'Visible' })
    queue.exited('some-other-toast')
    expect(queue.state.visible?.title).toBe('Visible')
    expect(queue.state.open).toBe(true)
  })
})
