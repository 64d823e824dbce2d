/**
 * Reads a `text/event-stream` body into the data of its `message` events.
 *
 * @module
 */
import { MAX_MESSAGE_BYTES } from "./transport.ts";

/**
 * Calls `onData` with the data of each message event of `body`, in order.
 * Contract: events of other types, comments, ids and retry fields are skipped; throws
 * when an event grows beyond 16 MB or the stream fails.
 */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  onData: (data: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let type = "message";
  const dispatch = () => {
    if (data.length > 0 && type === "message") onData(data.join("\n"));
    data = [];
    type = "message";
  };
  const line = (text: string) => {
    if (text === "") return dispatch();
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? "" : text.slice(colon + 1).replace(/^ /, "");
    if (field === "data") data.push(value);
    else if (field === "event") type = value;
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    // A CR at the end may be the first half of a CRLF: keep it for the next chunk.
    const end = buffer.endsWith("\r") ? buffer.length - 1 : buffer.length;
    const lines = buffer.slice(0, end).split(/\r\n|\r|\n/);
    buffer = (lines.pop() ?? "") + buffer.slice(end);
    for (const text of lines) line(text);
    if (buffer.length + data.reduce((sum, part) => sum + part.length, 0) > MAX_MESSAGE_BYTES) {
      throw new Error("the server sent an event larger than 16 MB");
    }
  }
  if (buffer !== "") line(buffer);
  dispatch();
}
