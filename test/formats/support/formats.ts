import { androidXmlFormatter } from "../../../core/formats/android-xml.ts";
import { csvFormatter } from "../../../core/formats/csv.ts";
import type { ExportInput, ExportOptions, Formatter } from "../../../core/formats/index.ts";
import { jsonFormatter } from "../../../core/formats/json.ts";
import { xliffFormatter } from "../../../core/formats/xliff.ts";
import { yamlFormatter } from "../../../core/formats/yaml.ts";
import { type Pairs, readAndroidPairs, readCsv, readJson, readXliffPairs, readYaml } from "./readers.ts";

export interface Variant {
  label: string;
  formatter: Formatter;
  options: Partial<ExportOptions>;
  read(text: string, input: ExportInput): Pairs;
}

/** Every format and option combination with the library reader a consumer would use. */
export const VARIANTS: Variant[] = [
  { label: "json", formatter: jsonFormatter, options: {}, read: (t) => readJson(t) },
  { label: "csv", formatter: csvFormatter, options: {}, read: (t, i) => readCsv(t, i.language) },
  {
    label: "csv bom",
    formatter: csvFormatter,
    options: { bom: true },
    read: (t, i) => readCsv(t, i.language),
  },
  { label: "xliff 1.2", formatter: xliffFormatter, options: {}, read: (t) => readXliffPairs(t) },
  {
    label: "xliff 2.0",
    formatter: xliffFormatter,
    options: { xliffVersion: "2.0" },
    read: (t) => readXliffPairs(t),
  },
  { label: "xml", formatter: androidXmlFormatter, options: {}, read: (t) => readAndroidPairs(t) },
  { label: "yaml 1.2", formatter: yamlFormatter, options: {}, read: (t) => readYaml(t, "1.2") },
  { label: "yaml 1.1", formatter: yamlFormatter, options: {}, read: (t) => readYaml(t, "1.1") },
];
