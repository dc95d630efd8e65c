import { cloneElement, useEffect, useState } from 'react'
import type { FocusEvent, MouseEvent, ReactElement, TouchEvent } from 'react'
import { lazyPart, useLazyPart } from '../lib/lazy-part.ts'

const popup = lazyPart(() => import('./tip-popup.tsx'))

/** The props of the tooltip's child that `<Tip>` sets (and calls the child's own with). */
type TriggerProps = {
  'aria-label'?: string
  onMouseOver?: (event: MouseEvent<HTMLElement>) => void
  onMouseLeave?: (event: MouseEvent<HTMLElement>) => void
  onFocus?: (event: FocusEvent<HTMLElement>) => void
  onBlur?: (event: FocusEvent<HTMLElement>) => void
  onTouchStart?: (event: TouchEvent<HTMLElement>) => void
  onTouchEnd?: (event: TouchEvent<HTMLElement>) => void
}

// MUI's tooltip timing (its defaults).
const enterDelay = 100
const enterTouchDelay = 700
const leaveTouchDelay = 1500
/** After a tooltip closes, the next one opens without the delay for this long. */
const hysteresis = 800
/** Mouse events this long after a touch's tooltip closed are the browser's emulation of it. */
const afterTouch = 150

/** After a tooltip closes, the next one opens at once for a while (MUI's hysteresis). */
const recently = {
  open: false,
  timer: undefined as ReturnType<typeof setTimeout> | undefined,
  opened() {
    clearTimeout(this.timer)
    this.open = true
  },
  closed() {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => (this.open = false), hysteresis)
  },
}

/** A tooltip's timers, and whether the last interaction with its child was a touch. */
class Interaction {
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>()
  /** The last interaction was a touch: the mouse events the browser then emulates are ignored. */
  touched = false
  private userSelect: string | undefined
  start(name: string, delay: number, run: () => void) {
    this.clear(name)
    this.pending.set(
      name,
      setTimeout(() => {
        this.pending.delete(name)
        run()
      }, delay),
    )
  }
  clear(name: string) {
    clearTimeout(this.pending.get(name))
    this.pending.delete(name)
  }
  touchStarted() {
    this.touched = true
    this.clear('leave')
    this.clear('afterTouch')
    this.touchStopped()
    // No text selection on a long press (iOS).
    this.userSelect = document.body.style.getPropertyValue('-webkit-user-select')
    document.body.style.setProperty('-webkit-user-select', 'none')
  }
  touchStopped() {
    if (this.userSelect !== undefined) {
      document.body.style.setProperty('-webkit-user-select', this.userSelect)
      this.userSelect = undefined
    }
    this.clear('touch')
  }
  closed() {
    this.start('afterTouch', afterTouch, () => (this.touched = false))
  }
  end() {
    this.touchStopped()
    for (const timer of this.pending.values()) clearTimeout(timer)
    this.pending.clear()
  }
}

const focusVisible = (element: Element) => {
  try {
    return element.matches(':focus-visible')
  } catch {
    return true
  }
}

/**
 * A tooltip, as MUI's `<Tooltip>` shows it (on hover, on keyboard focus, on a long press; Escape
 * closes it), but its code is loaded when it is first needed (src/lib/lazy-part.ts): MUI's
 * tooltip and Popper.js stay out of a first visit's scripts. The child is drawn as it is, with
 * the listeners and the name a MUI tooltip gives it (`aria-label` is the title unless the child
 * has its own), so the pre-rendered page and the app's first render are the same and the child's
 * element is kept when the tooltip's code arrives. The child takes no ref from it either: nothing
 * is set in the commit that takes a pre-rendered page over.
 */
export function Tip({ title, children }: { title: string; children: ReactElement<TriggerProps> }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const [open, setOpen] = useState(false)
  const [touch, setTouch] = useState(false)
  const [interaction] = useState(() => new Interaction())
  const Popup = useLazyPart(popup, anchor !== null)
  useEffect(() => () => interaction.end(), [interaction])

  const show = () => {
    recently.opened()
    setTouch(interaction.touched)
    setOpen(true)
  }
  const hide = () => {
    recently.closed()
    setOpen(false)
    interaction.closed()
  }
  const enter = (node: HTMLElement, byTouch = false) => {
    if (interaction.touched && !byTouch) return
    // The first time, this asks for the tooltip's code; it is usually in before the delay ends.
    setAnchor(node)
    interaction.clear('leave')
    interaction.start('enter', recently.open ? 0 : enterDelay, show)
  }
  const leave = (delay: number) => {
    interaction.clear('enter')
    interaction.start('leave', delay, hide)
  }

  const { props } = children
  const trigger = cloneElement(children, {
    'aria-label': props['aria-label'] ?? title,
    onMouseOver: (event: MouseEvent<HTMLElement>) => {
      props.onMouseOver?.(event)
      enter(event.currentTarget)
    },
    onMouseLeave: (event: MouseEvent<HTMLElement>) => {
      props.onMouseLeave?.(event)
      leave(0)
    },
    onFocus: (event: FocusEvent<HTMLElement>) => {
      props.onFocus?.(event)
      if (focusVisible(event.target)) enter(event.currentTarget)
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      props.onBlur?.(event)
      leave(0)
    },
    onTouchStart: (event: TouchEvent<HTMLElement>) => {
      props.onTouchStart?.(event)
      interaction.touchStarted()
      const node = event.currentTarget
      interaction.start('touch', enterTouchDelay, () => {
        interaction.touchStopped()
        enter(node, true)
      })
    },
    onTouchEnd: (event: TouchEvent<HTMLElement>) => {
      props.onTouchEnd?.(event)
      interaction.touchStopped()
      leave(leaveTouchDelay)
    },
  })

  return (
    <>
      {trigger}
      {anchor && Popup ? (
        <Popup.TipPopup
          anchor={anchor}
          // There is no point in an empty tooltip.
          open={open && title !== ''}
          title={title}
          touch={touch}
          onClose={() => {
            interaction.clear('enter')
            hide()
          }}
          onPopupOver={() => {
            if (!interaction.touched) interaction.clear('leave')
          }}
          onPopupLeave={() => leave(0)}
        />
      ) : null}
    </>
  )
}
