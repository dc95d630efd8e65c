import { useEffect, useState } from 'react'

/**
 * False in a component's first render, true from a render in a task of its own after its first
 * commit. For what must stay out of the commit that takes a pre-rendered page
 * over: MUI's tooltips and selects keep their element in a state set by a ref, and a state set
 * during a commit is drawn in that same task, after every pending effect of the page is run first
 * (on a phone, a 60–100 ms task instead of two short ones; issue [12]).
 */
export function useCommitted(): boolean {
  const [committed, setCommitted] = useState(false)
  useEffect(() => {
    const later = setTimeout(() => setCommitted(true), 0)
    return () => clearTimeout(later)
  }, [])
  return committed
}
