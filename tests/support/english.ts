// The app adds English at start (applyLanguage in main.tsx); unit tests render components and
// translate without starting the app, so English is added here first, as the app's start would.
// The field RegEx engine, which the app loads after its first paint, is installed here too.
import '../../src/fields/regex-engine';
import en from '../../public/languages/en.json';
import { i18n } from '../../src/i18n/i18n';

i18n.addResourceBundle('en', 'translation', en, true, true);
