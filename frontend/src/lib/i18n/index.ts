export {
  changeUiLanguage,
  currentUiLanguage,
  i18next,
  initI18n,
  loadNamespaces,
  uiLanguageWasChosen,
} from './i18n.ts'
export { detectLanguage, initialNamespaces, isUiLanguage, uiLanguages } from './languages.ts'
export type { UiLanguage } from './languages.ts'
