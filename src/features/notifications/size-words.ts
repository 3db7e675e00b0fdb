/** Bytes as the tray says them (kB / MB / GB), in the user's locale. */
export function sizeWords(bytes: number, locale: string): string {
  const units = ['kB', 'MB', 'GB'] as const;
  let v = bytes / 1000;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: v < 10 ? 1 : 0 }).format(v)} ${units[u]}`;
}
