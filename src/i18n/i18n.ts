/**
 * The app's one i18next instance. It starts without texts: the app renders only after
 * languages.ts has added English (the fallback) and the chosen language's map (main.tsx awaits
 * applyLanguage). Until then the contract's errors use api-text.ts's own English.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: {},
  lng: 'en',
  fallbackLng: 'en',
  initAsync: false,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});
