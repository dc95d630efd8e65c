import { Portal } from '@mui/material'
import type { RefObject } from 'react'

type FlashOverlayProps = {
  overlayRef: RefObject<HTMLDivElement | null>
  canvasRef: RefObject<HTMLCanvasElement | null>
  /** What the picture is, for assistive technology. */
  label: string
}

/**
 * The full-screen picture. Always mounted and laid out, hidden with `visibility`, so showing it
 * in a frame is a paint of pixels drawn beforehand, not a layout; the flash engine toggles it
 * directly.
 */
export function FlashOverlay({ overlayRef, canvasRef, label }: FlashOverlayProps) {
  return (
    <Portal>
      <div
        ref={overlayRef}
        data-testid="tachistoscope-overlay"
        style={{
          position: 'fixed',
          inset: 0,
          zIndex: 2000,
          visibility: 'hidden',
          background: '#000',
          contain: 'strict',
        }}
      >
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={label}
          style={{ display: 'block', width: '100%', height: '100%' }}
        />
      </div>
    </Portal>
  )
}
