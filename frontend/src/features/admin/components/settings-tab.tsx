import {
  Button,
  FormControl,
  FormControlLabel,
  FormLabel,
  InputLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Select,
  Stack,
  Typography,
} from '@mui/material'
import { useState } from 'react'
import { Link as RouterLink } from 'react-router-dom'
import { useToast } from '../../../components/toast/index.ts'
import { paths } from '../../../config/paths.ts'
import { errorMessage } from '../../../lib/api/index.ts'
import type { AppSettings, Stage, TrainingLanguage } from '../../../lib/api/generated.ts'
import { useGetAppSettingsQuery, useUpdateAppSettingsMutation } from '../api.ts'

const languages: { code: TrainingLanguage; name: string }[] = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'fr', name: 'Français' },
  { code: 'es', name: 'Español' },
  { code: 'it', name: 'Italiano' },
]
const stages: Stage[] = ['Stage 1-2', 'Stage 2-3', 'Stage 4-6']

function SettingsForm({ saved }: { saved: AppSettings }) {
  const [draft, setDraft] = useState<AppSettings>(saved)
  const [update, { isLoading }] = useUpdateAppSettingsMutation()
  const { toast } = useToast()

  async function save() {
    try {
      await update({ appSettings: draft }).unwrap()
      toast({
        title: 'Settings Saved',
        description: 'Your settings have been saved.',
        variant: 'success',
      })
    } catch (err) {
      toast({
        title: 'Error',
        description: errorMessage(err, 'Failed to save settings'),
        variant: 'destructive',
      })
    }
  }

  return (
    <Stack
      component="form"
      spacing={3}
      sx={{ maxWidth: 480 }}
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <FormControl>
        <InputLabel id="default-language">Default language</InputLabel>
        <Select
          labelId="default-language"
          label="Default language"
          value={draft.defaultLanguage}
          onChange={(e) => setDraft({ ...draft, defaultLanguage: e.target.value })}
        >
          {languages.map((l) => (
            <MenuItem key={l.code} value={l.code}>
              {l.name}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <FormControl>
        <InputLabel id="default-stage">Default stage</InputLabel>
        <Select
          labelId="default-stage"
          label="Default stage"
          value={draft.defaultStage}
          onChange={(e) => setDraft({ ...draft, defaultStage: e.target.value })}
        >
          {stages.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <FormControl>
        <FormLabel id="tachistoscope-access">Who may use the tachistoscope</FormLabel>
        <RadioGroup
          aria-labelledby="tachistoscope-access"
          value={draft.tachistoscopeAccess}
          onChange={(e) =>
            setDraft({
              ...draft,
              tachistoscopeAccess: e.target.value === 'user' ? 'user' : 'admin',
            })
          }
        >
          <FormControlLabel value="admin" control={<Radio />} label="Administrators only" />
          <FormControlLabel value="user" control={<Radio />} label="Every signed-in user" />
        </RadioGroup>
      </FormControl>
      <Typography variant="body2" color="text.secondary">
        The descriptor trainer starts with the default language (unless a visitor chose one) and the
        default stage (Stage 2-3 and 4-6 need sign-in).
      </Typography>
      <Stack direction="row" spacing={2}>
        <Button type="submit" variant="contained" loading={isLoading}>
          Save Settings
        </Button>
      </Stack>
    </Stack>
  )
}

/** The app's settings, stored on the server, and quick links. */
export function SettingsTab() {
  const { data, error } = useGetAppSettingsQuery()
  return (
    <Stack spacing={4}>
      {data ? (
        // Keyed by what is saved, so a save elsewhere resets the form to it.
        <SettingsForm key={JSON.stringify(data)} saved={data} />
      ) : error ? (
        <Typography color="error">{errorMessage(error, 'Failed to load settings')}</Typography>
      ) : null}
      <Stack spacing={1}>
        <Typography variant="subtitle1" component="h3">
          Quick links
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Button component={RouterLink} to={paths.descriptorTraining}>
            Descriptor Training
          </Button>
          <Button component={RouterLink} to={paths.tachistoscope}>
            Tachistoscope
          </Button>
          <Button component={RouterLink} to={paths.siderealTime}>
            Sidereal Time
          </Button>
        </Stack>
      </Stack>
    </Stack>
  )
}
