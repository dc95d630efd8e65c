import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown'
import { FormControl, InputLabel, OutlinedInput, type InputBaseComponentProps } from '@mui/material'
import {
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type FocusEventHandler,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type Ref,
} from 'react'
import { useTranslation } from 'react-i18next'
import { Flag } from '../../../components/flag.tsx'
import type { TrainingLanguage } from '../../../lib/api/generated.ts'
import { lazyPart, useLazyPart } from '../../../lib/lazy-part.ts'
import { trainingLanguages } from '../languages.ts'
import { useLanguageName } from '../use-language-name.ts'

// The list's code (MUI's Menu with its Popover, Modal and focus trap) is left out of the first
// screen: MUI's Select imports it with the closed select. Here the closed select is drawn as
// Select draws it, and the list is loaded when first opened, or once the page is idle.
const menu = lazyPart(() => import('./language-select-menu.tsx'))

type LanguageSelectProps = {
  value: TrainingLanguage
  onChange: (language: TrainingLanguage) => void
}

/**
 * The trainer's language: English, German, French, Spanish or Italian, with their flags, named
 * in the interface language.
 */
export function LanguageSelect({ value, onChange }: LanguageSelectProps) {
  const { t } = useTranslation('descriptors')
  const languageName = useLanguageName()
  const labelId = useId()
  const listId = useId()
  // The select's frame, which the list opens under; null while the list is closed.
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const open = anchor !== null
  const Loaded = useLazyPart(menu, open)?.LanguageSelectMenu
  const chosen = trainingLanguages.find((language) => language.code === value)
  const { name, lang } = chosen ? languageName(chosen) : { name: value, lang: undefined }
  const label = t('languageSelect.label')
  return (
    <FormControl size="small" sx={{ minWidth: 160 }}>
      <InputLabel id={labelId} shrink>
        {label}
      </InputLabel>
      <OutlinedInput
        label={label}
        notched
        value={value}
        readOnly
        inputComponent={SelectDisplay}
        inputProps={{
          display: (
            <>
              <Flag code={value} />
              &nbsp;<span lang={lang}>{name}</span>
            </>
          ),
          open,
          onOpen: (frame: HTMLElement) => setAnchor(frame),
          labelId,
          listId,
        }}
        endAdornment={
          <ArrowDropDownIcon
            sx={{
              position: 'absolute',
              right: 7,
              pointerEvents: 'none',
              color: 'action.active',
              transform: open ? 'rotate(180deg)' : undefined,
            }}
          />
        }
        sx={{
          cursor: 'pointer',
          '& .MuiInputBase-input': {
            height: 'auto',
            minHeight: '1.4375em',
            pr: 4,
            display: 'flex',
            alignItems: 'center',
            whiteSpace: 'nowrap',
            cursor: 'pointer',
            userSelect: 'none',
          },
        }}
      />
      {Loaded ? (
        <Loaded
          anchor={anchor}
          open={open}
          value={value}
          listId={listId}
          labelId={labelId}
          onChoose={(language) => {
            setAnchor(null)
            onChange(language)
          }}
          onClose={() => setAnchor(null)}
        />
      ) : null}
    </FormControl>
  )
}

type SelectDisplayProps = {
  display: ReactNode
  open: boolean
  /** Opens the list under `frame`, the OutlinedInput's root. */
  onOpen: (frame: HTMLElement) => void
  labelId: string
  listId: string
}

const opensOn = new Set([' ', 'Enter', 'ArrowDown', 'ArrowUp'])

/** The closed select, as the input of an OutlinedInput (as Select's own is): a combobox. */
function SelectDisplay(props: InputBaseComponentProps) {
  const { className, onFocus, onBlur, ref } = props
  const { display, open, onOpen, labelId, listId } = props as InputBaseComponentProps &
    SelectDisplayProps
  const element = useRef<HTMLDivElement>(null)
  // What InputBase asks of its input: to take the focus (a click on the frame, autoFocus).
  useImperativeHandle(ref as Ref<{ focus: () => void }>, () => ({
    focus: () => element.current?.focus(),
  }))
  const openList = () => {
    const frame = element.current?.parentElement
    if (frame) onOpen(frame)
  }
  return (
    <div
      ref={element}
      role="combobox"
      tabIndex={0}
      aria-haspopup="listbox"
      aria-expanded={open}
      aria-controls={open ? listId : undefined}
      aria-labelledby={labelId}
      className={className}
      // InputBase's own handlers (the frame's focused look); they read no input's value.
      onFocus={onFocus as FocusEventHandler<HTMLElement> | undefined}
      onBlur={onBlur as FocusEventHandler<HTMLElement> | undefined}
      onMouseDown={(event: MouseEvent) => {
        if (event.button !== 0) return
        // As Select: the press opens the list; the focus stays on the select.
        event.preventDefault()
        element.current?.focus()
        openList()
      }}
      onKeyDown={(event: KeyboardEvent) => {
        if (!opensOn.has(event.key)) return
        event.preventDefault()
        openList()
      }}
    >
      {display}
    </div>
  )
}
