/**
 * HTTP written by hand over a socket: what `fetch` will not send (a Host of our choosing, none at
 * all with HTTP/1.0, a target with dot segments kept).
 */
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** One HTTP request over a socket: the request line, header lines, then an optional body. */
export function raw(port: number, lines: string[], body = ""): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`));
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("utf8");
    });
    socket.on("error", reject);
    socket.on("end", () => {
      const split = text.indexOf("\r\n\r\n");
      const [statusLine = "", ...headerLines] = text.slice(0, split).split("\r\n");
      const headers = new Map<string, string>();
      for (const line of headerLines) {
        const colon = line.indexOf(":");
        headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: text.slice(split + 4) });
    });
  });
}
