/**
 * The type of the app's `t` where it is passed to a plain function (tray words, problem texts):
 * i18next's TFunction of the one namespace. `ReturnType<typeof useTranslation>['t']` names the hook's
 * generic defaults instead (any namespace), whose keys TypeScript resolves over every namespace:
 * with ~750 keys that crossed its instantiation limit (TS2589 "excessively deep" at a t() call).
 */
import type { TFunction } from 'i18next';

export type AppTFunction = TFunction<'translation', undefined>;
