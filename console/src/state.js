// A value pages share (the session, the current path), with a hook that re-renders a component
// when it changes. Small on purpose: two values in the whole console need it.
import { useEffect, useState } from "preact/hooks";

export function signal(initial) {
  let value = initial;
  const listeners = new Set();
  return {
    get: () => value,
    set(next) {
      value = next;
      for (const listener of listeners) listener(next);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useSignal(shared) {
  const [value, setValue] = useState(shared.get());
  useEffect(() => {
    setValue(shared.get());
    return shared.subscribe(setValue);
  }, [shared]);
  return value;
}
