/**
 * Line-by-line reading of a byte stream, for the step protocol between the bench and its
 * child processes.
 *
 * @module
 */

/**
 * Yields the lines of `stream` without their newline; a last line without one is yielded too.
 * Contract: releases the stream's lock when the iteration ends or is abandoned.
 */
export async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buffered = "";
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    buffered += text;
    let newline;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      yield buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
    }
  }
  if (buffered !== "") yield buffered;
}
