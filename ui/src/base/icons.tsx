/** Inline SVG icons (no icon font, nothing fetched). Decorative: hidden from screen readers. */
import type { SVGAttributes } from "preact";

const icon = (d: string) => (props: SVGAttributes<SVGSVGElement>) => (
  <svg
    viewBox="0 0 24 24"
    width="16"
    height="16"
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    stroke-linecap="round"
    stroke-linejoin="round"
    aria-hidden="true"
    focusable="false"
    {...props}
  >
    <path d={d} />
  </svg>
);

export const LogoIcon = icon("M4 5h16v11H9l-5 4zM8 9h8M8 12h5");
export const CopyIcon = icon("M9 9h11v11H9zM5 15H4V4h11v1");
export const HistoryIcon = icon("M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 3");
export const CheckIcon = icon("M5 12l5 5L20 7");
export const WarnIcon = icon("M12 3l10 18H2zM12 10v4M12 18h.01");
export const CloseIcon = icon("M6 6l12 12M18 6L6 18");
export const UploadIcon = icon("M12 16V4M7 9l5-5 5 5M4 20h16");
export const DownloadIcon = icon("M12 4v12M7 11l5 5 5-5M4 20h16");
export const KeyboardIcon = icon("M2 6h20v12H2zM6 10h.01M10 10h.01M14 10h.01M18 10h.01M7 14h10");
