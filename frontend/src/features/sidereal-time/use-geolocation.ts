import { startTransition, useCallback, useState } from 'react'

/** Spec §9: high accuracy, 10 s timeout, a cached position up to 300000 ms old. */
export const geolocationOptions: PositionOptions = {
  enableHighAccuracy: true,
  timeout: 10_000,
  maximumAge: 300_000,
}

export interface Position {
  latitude: number
  longitude: number
}

export type GeolocationStatus = 'idle' | 'locating' | 'located' | 'denied' | 'unavailable'

/** The browser's position on request; a refusal or failure is only logged (spec §8). */
export function useGeolocation() {
  const [position, setPosition] = useState<Position | null>(null)
  const [status, setStatus] = useState<GeolocationStatus>('idle')

  // The page is drawn again for each step, as a transition that yields to the browser: the first
  // request comes from an effect of the page's take-over, where a plain update was one more
  // 50-100 ms task on a phone (issue [12]).
  const request = useCallback(() => {
    if (!('geolocation' in navigator)) {
      console.info('Geolocation is not available in this browser')
      startTransition(() => setStatus('unavailable'))
      return
    }
    startTransition(() => setStatus('locating'))
    navigator.geolocation.getCurrentPosition(
      (p) =>
        startTransition(() => {
          setPosition({ latitude: p.coords.latitude, longitude: p.coords.longitude })
          setStatus('located')
        }),
      (error) => {
        console.info('Geolocation failed:', error.message)
        startTransition(() =>
          setStatus(error.code === error.PERMISSION_DENIED ? 'denied' : 'unavailable'),
        )
      },
      geolocationOptions,
    )
  }, [])

  return { position, status, request }
}
