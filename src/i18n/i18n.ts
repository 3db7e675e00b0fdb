/**
 * The app's one i18next instance. It starts synchronously with the bundled English map, so any
 * module (the HTTP wrapper, the error handler) can translate before a language file has loaded;
 * languages.ts then adds the chosen language's map.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { english } from './resources';

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { en: { translation: english } },
  lng: 'en',
  fallbackLng: 'en',
  initAsync: false,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});
