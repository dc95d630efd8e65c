import { Button, type ButtonProps } from '@mui/material'

type SteadyButtonProps = ButtonProps & {
  /** The button cannot act now (a word loads, a clip plays); it says so but keeps the focus. */
  inactive: boolean
}

/**
 * A button that goes inactive under the keyboard focus without dropping it. A `disabled` button
 * loses the focus the moment it is disabled: on a page it falls to the body, in a dialog to the
 * dialog's frame, and the next Tab starts again from the top. Pressing Next or Pronounce would
 * do exactly that, so these buttons say `aria-disabled`, look disabled and ignore presses.
 */
export function SteadyButton({ inactive, onClick, className, ...props }: SteadyButtonProps) {
  return (
    <Button
      {...props}
      aria-disabled={inactive || undefined}
      className={inactive ? [className, 'Mui-disabled'].filter(Boolean).join(' ') : className}
      onClick={inactive ? undefined : onClick}
    />
  )
}
