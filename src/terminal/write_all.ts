/**
 * Synchronous writes that never stop short.
 *
 * @module
 */

const encoder = new TextEncoder();

/** A sink for text. */
export type Writer = (text: string) => void;

/**
 * A writer that puts all of each text into `file` (stdout, stderr), looping over
 * short writes.
 */
export function writeTo(file: { writeSync(data: Uint8Array): number }): Writer {
  return (text) => {
    let bytes = encoder.encode(text);
    while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
  };
}
