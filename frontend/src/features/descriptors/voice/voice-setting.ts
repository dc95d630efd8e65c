import { useCallback, useMemo, useState } from 'react'
import { stopPlayback } from './audio-player.ts'

const enabledKey = 'crv-voice-enabled'

function readEnabled(): boolean {
  try {
    return localStorage.getItem(enabledKey) !== 'false'
  } catch {
    return true
  }
}

/** The voice assistant's on/off switch (spec §2), kept in this browser; off silences it. */
export type VoiceSetting = {
  enabled: boolean
  setEnabled: (enabled: boolean) => void
}

/**
 * The trainer's switch for its voice, on the page and in its dialogs. Apart from the assistant
 * itself (use-voice-assistant.ts), whose code comes with the dialogs that use it.
 */
export function useVoiceSetting(): VoiceSetting {
  const [enabled, setEnabledState] = useState(readEnabled)
  const setEnabled = useCallback((next: boolean) => {
    setEnabledState(next)
    try {
      localStorage.setItem(enabledKey, String(next))
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    if (!next) stopPlayback()
  }, [])
  return useMemo(() => ({ enabled, setEnabled }), [enabled, setEnabled])
}
