/** `parlance-tms/storage/memory`: storage in plain Maps, for tests and throwaway instances. Any runtime. */
export { createMemoryStorage } from "../../storage/memory/index.ts";
