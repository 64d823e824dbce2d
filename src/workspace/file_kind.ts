/**
 * What kind of entry a path names (regular file, directory, FIFO, socket, device), and the
 * refusal of every kind but regular files, shared by reads and writes.
 *
 * @module
 */

/** The kind of a file system entry. */
export type Kind = "file" | "directory" | "fifo" | "socket" | "char" | "block" | "other";

const KIND_NAMES: Record<Exclude<Kind, "file" | "directory">, string> = {
  fifo: "a FIFO (named pipe)",
  socket: "a socket",
  char: "a character device",
  block: "a block device",
  other: "not a regular file",
};

/** The file-type flags of a `Deno.FileInfo`, which node's `Stats` can be mapped to. */
export type TypeFlags = Pick<
  Deno.FileInfo,
  "isFile" | "isDirectory" | "isFifo" | "isSocket" | "isCharDevice" | "isBlockDevice"
>;

/** The kind `info` describes. */
export function kindOf(info: TypeFlags): Kind {
  if (info.isFile) return "file";
  if (info.isDirectory) return "directory";
  if (info.isFifo) return "fifo";
  if (info.isSocket) return "socket";
  if (info.isCharDevice) return "char";
  if (info.isBlockDevice) return "block";
  return "other";
}

/**
 * Throws when `info` (from `Deno.stat`) describes a FIFO, socket or device node.
 * Contract: the message starts with `Cannot <action> "<path>":` and names the kind.
 */
export function refuseSpecialFile(info: TypeFlags, path: string, action: string): void {
  const kind = kindOf(info);
  if (kind !== "directory") refuseSpecial(kind, path, action);
}

/**
 * Throws unless `kind` is a regular file.
 * Contract: the message starts with `Cannot <action> "<path>":` and names the kind.
 */
export function refuseSpecial(kind: Kind, path: string, action: string): void {
  if (kind === "file") return;
  if (kind === "directory") {
    throw new Deno.errors.IsADirectory(
      `Cannot ${action} "${path}": it is a directory; list it with bash (ls)`,
    );
  }
  throw new TypeError(
    `Cannot ${action} "${path}": it is ${KIND_NAMES[kind]}, not a regular file; only regular ` +
      "files can be read or changed",
  );
}
