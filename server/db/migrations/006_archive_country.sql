-- The country (ISO 3166-1 alpha-2) whose currency an archive's 'C' masks show, through the
-- currency table by country code (the user-app spec §9; src/fields/locale.ts currencyForCountry).
-- NULL: not set, and amounts show without a currency symbol rather than one guessed from the
-- user's language.
ALTER TABLE archives ADD COLUMN IF NOT EXISTS country text;
