/** Every export format of every language, as downloads the browser saves. */
import { API } from "../api.ts";
import { DownloadIcon } from "../base/icons.tsx";
import type { Project } from "../types.ts";

export const FORMATS = [
  { format: "json", label: "JSON" },
  { format: "json-nested", label: "JSON (nested)" },
  { format: "csv", label: "CSV" },
  { format: "xliff", label: "XLIFF" },
  { format: "xml", label: "Android XML" },
  { format: "yaml", label: "YAML" },
] as const;

export function exportHref(projectId: string, language: string, format: string): string {
  const query = new URLSearchParams({ language, format: format === "json-nested" ? "json" : format });
  if (format === "json-nested") query.set("nested", "true");
  return `${API}/projects/${encodeURIComponent(projectId)}/export?${query}`;
}

export function DownloadsPanel({ project }: { project: Project }) {
  return (
    <section class="panel" aria-labelledby="downloads-title">
      <h2 id="downloads-title">Downloads</h2>
      <table>
        <caption class="sr-only">Export files per language and format</caption>
        <tbody>
          {project.languages.map((language) => (
            <tr key={language}>
              <th scope="row">{language}</th>
              <td class="row">
                {FORMATS.map((f) => (
                  <a
                    key={f.format}
                    class="button"
                    href={exportHref(project.id, language, f.format)}
                    download=""
                    aria-label={`Download ${language} as ${f.label}`}
                  >
                    <DownloadIcon /> {f.label}
                  </a>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
