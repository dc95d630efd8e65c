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
import i18next from 'i18next'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { useToast } from '../../../components/toast/index.ts'
import { paths } from '../../../config/paths.ts'
import { errorMessage } from '../../../lib/api/index.ts'
import type { AppSettings, Stage, TrainingLanguage } from '../../../lib/api/generated.ts'
import { useGetAppSettingsQuery, useUpdateAppSettingsMutation } from '../api.ts'
import { stageLabel } from '../format.ts'

// Named in the interface language at render (see languageNames in the admin catalogue).
const languages: TrainingLanguage[] = ['en', 'de', 'fr', 'es', 'it']
const stages: Stage[] = ['Stage 1-2', 'Stage 2-3', 'Stage 4-6']

function SettingsForm({ saved }: { saved: AppSettings }) {
  const [draft, setDraft] = useState<AppSettings>(saved)
  const [update, { isLoading }] = useUpdateAppSettingsMutation()
  const { toast } = useToast()
  const { t } = useTranslation('admin')

  async function save() {
    try {
      await update({ appSettings: draft }).unwrap()
      toast({
        title: i18next.t('admin:settings.saved'),
        description: i18next.t('admin:settings.savedText'),
        variant: 'success',
      })
    } catch (err) {
      toast({
        title: i18next.t('admin:toast.error'),
        description: errorMessage(err, i18next.t('admin:settings.saveFailed')),
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
        <InputLabel id="default-language">{t('settings.defaultLanguage')}</InputLabel>
        <Select
          labelId="default-language"
          label={t('settings.defaultLanguage')}
          value={draft.defaultLanguage}
          onChange={(e) => setDraft({ ...draft, defaultLanguage: e.target.value })}
        >
          {languages.map((code) => (
            <MenuItem key={code} value={code}>
              {t(`languageNames.${code}`)}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <FormControl>
        <InputLabel id="default-stage">{t('settings.defaultStage')}</InputLabel>
        <Select
          labelId="default-stage"
          label={t('settings.defaultStage')}
          value={draft.defaultStage}
          onChange={(e) => setDraft({ ...draft, defaultStage: e.target.value })}
        >
          {stages.map((s) => (
            <MenuItem key={s} value={s}>
              {stageLabel(s)}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <FormControl>
        <FormLabel id="tachistoscope-access">{t('settings.tachistoscopeAccess')}</FormLabel>
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
          <FormControlLabel value="admin" control={<Radio />} label={t('settings.adminsOnly')} />
          <FormControlLabel value="user" control={<Radio />} label={t('settings.everyUser')} />
        </RadioGroup>
      </FormControl>
      <Typography variant="body2" color="text.secondary">
        {t('settings.hint')}
      </Typography>
      <Stack direction="row" spacing={2}>
        <Button type="submit" variant="contained" loading={isLoading}>
          {t('settings.save')}
        </Button>
      </Stack>
    </Stack>
  )
}

/** The app's settings, stored on the server, and quick links. */
export function SettingsTab() {
  const { data, error } = useGetAppSettingsQuery()
  const { t } = useTranslation('admin')
  return (
    <Stack spacing={4}>
      {data ? (
        // Keyed by what is saved, so a save elsewhere resets the form to it.
        <SettingsForm key={JSON.stringify(data)} saved={data} />
      ) : error ? (
        <Typography color="error">{errorMessage(error, t('settings.loadFailed'))}</Typography>
      ) : null}
      <Stack spacing={1}>
        <Typography variant="subtitle1" component="h3">
          {t('settings.quickLinks')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Button component={RouterLink} to={paths.descriptorTraining}>
            {t('settings.descriptorTraining')}
          </Button>
          <Button component={RouterLink} to={paths.tachistoscope}>
            {t('settings.tachistoscope')}
          </Button>
          <Button component={RouterLink} to={paths.siderealTime}>
            {t('settings.siderealTime')}
          </Button>
        </Stack>
      </Stack>
    </Stack>
  )
}
