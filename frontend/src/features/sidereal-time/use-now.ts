import { useEffect, useState } from 'react'

/** The clock, re-read every `intervalMs` while `running`. */
export function useNow(running: boolean, intervalMs = 250): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!running) return
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs)
    return () => window.clearInterval(timer)
  }, [running, intervalMs])
  return now
}
