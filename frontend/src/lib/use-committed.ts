import { useEffect, useState, type HTMLAttributes } from 'react'

/**
 * False in a component's first render, true from a render in a task of its own after its first
 * commit. For what must stay out of the commit that takes a pre-rendered page over: MUI's
 * tooltips and selects keep their element in a state set by a ref, and a state set during a
 * commit is drawn in that same task, after every pending effect of the page is run first (on a
 * phone, a 60–100 ms task instead of two short ones; issue [12]).
 */
export function useCommitted(): boolean {
  const [committed, setCommitted] = useState(false)
  useEffect(() => {
    const later = setTimeout(() => setCommitted(true), 0)
    return () => clearTimeout(later)
  }, [])
  return committed
}

const displayWithoutRef = { ref: undefined } as HTMLAttributes<HTMLDivElement>

/**
 * `SelectDisplayProps` for a MUI select drawn in the take-over's commit: MUI's select keeps its
 * element in a state set by a ref, so until the select has been committed once that ref is
 * covered (the display's props are spread over it); it opens once it is, a task later.
 */
export function useSelectDisplayProps(): HTMLAttributes<HTMLDivElement> | undefined {
  return useCommitted() ? undefined : displayWithoutRef
}
