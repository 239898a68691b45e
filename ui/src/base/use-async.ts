/** Loads something when its inputs change; `reload` fetches again. Errors become a message. */
import { useCallback, useEffect, useState } from "preact/hooks";
import { messageOf } from "../api.ts";

export interface Async<T> {
  data: T | undefined;
  error: string;
  loading: boolean;
  reload: () => void;
}

export function useAsync<T>(load: () => Promise<T>, inputs: unknown[]): Async<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState("");
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError("");
        setLoading(false);
      },
      (e) => {
        if (!live) return;
        setError(messageOf(e));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [...inputs, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}
