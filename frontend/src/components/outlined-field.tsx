import {
  FormControl,
  FormHelperText,
  InputLabel,
  NativeSelect,
  OutlinedInput,
  type SxProps,
  type Theme,
} from '@mui/material'
import { useId, type ChangeEvent, type InputHTMLAttributes, type ReactNode, type Ref } from 'react'

// MUI's TextField draws exactly this (a form control with a label, an outlined input and a helper
// text), but it imports Select and with it Menu, Popover and Modal (12 KiB gzipped) for its
// `select` variant. On a first screen that needs none of them, these are drawn instead.

type FieldProps = {
  label: string
  helperText?: ReactNode
  disabled?: boolean
  fullWidth?: boolean
  size?: 'small' | 'medium'
  sx?: SxProps<Theme>
}

/** An outlined text field, as TextField draws one. */
export function OutlinedTextField({
  label,
  helperText,
  disabled,
  fullWidth,
  size,
  sx,
  value,
  onChange,
  type,
  shrinkLabel,
  htmlInput,
}: FieldProps & {
  value: string
  onChange: (event: ChangeEvent<HTMLInputElement>) => void
  type?: string
  /** The label above the field even when it is empty (a date's own placeholder shows there). */
  shrinkLabel?: boolean
  htmlInput?: InputHTMLAttributes<HTMLInputElement>
}) {
  const id = useId()
  const helperId = helperText ? `${id}-helper-text` : undefined
  return (
    <FormControl variant="outlined" disabled={disabled} fullWidth={fullWidth} size={size} sx={sx}>
      <InputLabel htmlFor={id} shrink={shrinkLabel}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        type={type}
        label={label}
        notched={shrinkLabel}
        value={value}
        onChange={onChange}
        inputProps={{ ...htmlInput, 'aria-describedby': helperId }}
      />
      {helperText ? <FormHelperText id={helperId}>{helperText}</FormHelperText> : null}
    </FormControl>
  )
}

/**
 * An outlined choice from a list, as the browser offers it: on a phone, the system's own picker.
 * `children` are `<option>` elements.
 */
export function OutlinedNativeSelect({
  label,
  helperText,
  disabled,
  fullWidth,
  size,
  sx,
  value,
  onChange,
  children,
  ariaLabel,
  selectRef,
}: FieldProps & {
  value: string
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void
  children: ReactNode
  /** What is read out instead of the label, where many alike stand together. */
  ariaLabel?: string
  selectRef?: Ref<HTMLSelectElement>
}) {
  const id = useId()
  return (
    <FormControl variant="outlined" disabled={disabled} fullWidth={fullWidth} size={size} sx={sx}>
      <InputLabel htmlFor={id} shrink>
        {label}
      </InputLabel>
      <NativeSelect
        value={value}
        onChange={onChange}
        input={<OutlinedInput label={label} notched inputRef={selectRef} />}
        inputProps={{ id, 'aria-label': ariaLabel }}
      >
        {children}
      </NativeSelect>
      {helperText ? <FormHelperText>{helperText}</FormHelperText> : null}
    </FormControl>
  )
}
