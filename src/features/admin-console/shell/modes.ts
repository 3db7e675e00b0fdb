import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { TranslationKey } from '../../../i18n/resources';
import type { ModeProps } from '../mode-props';

/** The console's modes (the console spec §2), in the navigation's order; part 2's are listed disabled. */
export const CONSOLE_MODES = ['DATABASES', 'ARCHIVES', 'INBOXES', 'FIELD_CATALOG', 'SEARCHES', 'LICENSE_RULES', 'ADVANCED_LINKS', 'DATABASE_IMPORT'] as const;
export type ConsoleMode = (typeof CONSOLE_MODES)[number];
export const DEFAULT_MODE: ConsoleMode = 'DATABASES';

export const isConsoleMode = (s: string | null): s is ConsoleMode => s !== null && (CONSOLE_MODES as readonly string[]).includes(s);

type ModeComponent = LazyExoticComponent<ComponentType<ModeProps>>;

/** Each built mode's component, loaded when first shown; a mode without one is not built yet. */
export const MODE_COMPONENTS: Partial<Record<ConsoleMode, ModeComponent>> = {
  DATABASES: lazy(() => import('../modes/databases/index')),
  ARCHIVES: lazy(() => import('../modes/archives/index')),
  FIELD_CATALOG: lazy(() => import('../modes/field-catalog/index')),
  SEARCHES: lazy(() => import('../modes/searches/index')),
  ADVANCED_LINKS: lazy(() => import('../modes/advanced-links/index')),
};

export const MODE_LABELS: Record<ConsoleMode, TranslationKey> = {
  DATABASES: 'ADMIN_MODE_DATABASES',
  ARCHIVES: 'ADMIN_MODE_ARCHIVES',
  INBOXES: 'ADMIN_MODE_INBOXES',
  FIELD_CATALOG: 'ADMIN_MODE_FIELD_CATALOG',
  SEARCHES: 'ADMIN_MODE_SEARCHES',
  LICENSE_RULES: 'ADMIN_MODE_LICENSE_RULES',
  ADVANCED_LINKS: 'ADMIN_MODE_ADVANCED_LINKS',
  DATABASE_IMPORT: 'ADMIN_MODE_DATABASE_IMPORT',
};

/** Modes that work on one database: without a selected one they ask for it. */
export const NEEDS_DB: ReadonlySet<ConsoleMode> = new Set(['ARCHIVES', 'FIELD_CATALOG', 'SEARCHES', 'ADVANCED_LINKS']);
