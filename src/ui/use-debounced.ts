import { useEffect, useState } from 'react';

/** `value`, once it has stayed the same for `ms` (one request per pause in typing). */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}
