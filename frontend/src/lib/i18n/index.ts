export {
  changeUiLanguage,
  currentUiLanguage,
  i18next,
  initI18n,
  namespaces,
  uiLanguageWasChosen,
} from './i18n.ts'
export { detectLanguage, isUiLanguage, uiLanguages } from './languages.ts'
export type { UiLanguage } from './languages.ts'
