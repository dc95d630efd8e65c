import { Tooltip } from '@mui/material'
import type { Theme } from '@mui/material'
import { useImperativeHandle, useLayoutEffect, type Ref } from 'react'

export type TipPopupProps = {
  /** The element the tooltip is for: it shows beside it. */
  anchor: HTMLElement
  open: boolean
  title: string
  /** Opened by a long press: larger, as MUI draws a tooltip of a touch. */
  touch: boolean
  /** Escape was pressed. */
  onClose: () => void
  onPopupOver: () => void
  onPopupLeave: () => void
}

/**
 * Stands in for the tooltip's child, which is drawn by `<Tip>` and stays as it is: MUI's tooltip
 * takes it as its child's element (its position, its `disabled`). The props MUI would give the
 * child (its listeners, its name) are `<Tip>`'s own.
 */
function Anchor({
  ref,
  node,
  ...given
}: {
  ref?: Ref<HTMLElement>
  node: HTMLElement
  'data-mui-internal-clone-element'?: boolean
}) {
  useImperativeHandle(ref, () => node, [node])
  // In development MUI checks that its child took the props it was given.
  const checked = given['data-mui-internal-clone-element'] === true
  useLayoutEffect(() => {
    if (checked) node.setAttribute('data-mui-internal-clone-element', 'true')
  }, [checked, node])
  return null
}

const round = (value: number) => Math.round(value * 1e5) / 1e5

// MUI's tooltip styles for a touch (the `touch` class it sets itself when it saw the touch).
const touchStyle = (theme: Theme) => ({
  padding: '8px 16px',
  fontSize: theme.typography.pxToRem(14),
  lineHeight: `${round(16 / 14)}em`,
  fontWeight: theme.typography.fontWeightRegular,
  '.MuiTooltip-popper[data-popper-placement*="bottom"] &': { marginTop: '24px' },
  '.MuiTooltip-popper[data-popper-placement*="top"] &': { marginBottom: '24px' },
})

/** MUI's tooltip, opened and closed by `<Tip>` (src/components/tip.tsx): loaded when first needed. */
export function TipPopup({
  anchor,
  open,
  title,
  touch,
  onClose,
  onPopupOver,
  onPopupLeave,
}: TipPopupProps) {
  return (
    <Tooltip
      open={open}
      title={title}
      onClose={onClose}
      slotProps={{
        // The pointer may move onto the tooltip without it closing (WCAG 1.4.13).
        popper: { onMouseOver: onPopupOver, onMouseLeave: onPopupLeave },
        tooltip: touch ? { sx: touchStyle } : undefined,
      }}
    >
      <Anchor node={anchor} />
    </Tooltip>
  )
}
