/**
 * What a delete confirmation asks to be typed (the console spec §5): 'DELETE {name}' in upper case,
 * or for searches just the name (namePrefix false).
 */
export function deleteConfirmationText(name: string, withPrefix = true): string {
  return withPrefix ? `DELETE ${name}`.toUpperCase() : name;
}

export function deleteConfirmed(typed: string, name: string, withPrefix = true): boolean {
  return typed.trim() === deleteConfirmationText(name, withPrefix).trim();
}
