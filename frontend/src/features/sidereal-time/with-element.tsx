import { Fragment, type ReactNode } from 'react'

/** Stands in a message for an element (a link) that the message cannot hold itself. */
export const slot = '\uE000'

/** A translated text with `slot` in it, the slot replaced by `element`. */
export function withElement(text: string, element: ReactNode): ReactNode {
  const [before = '', ...rest] = text.split(slot)
  return (
    <>
      {before}
      {rest.length > 0 ? <Fragment>{element}</Fragment> : null}
      {rest.join('')}
    </>
  )
}
