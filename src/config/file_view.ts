/**
 * The file-system calls the launch step makes, behind one interface, so that the launcher's
 * cache can learn exactly which paths a launch looked at (see `path_record.ts`).
 *
 * @module
 */

/** What project resolution and the settings' names read from the file system. */
export interface FileView {
  realPath(path: string): Promise<string>;
  realPathSync(path: string): string;
  stat(path: string): Promise<Deno.FileInfo>;
  readTextFile(path: string): Promise<string>;
}

/** The file system itself, unrecorded. */
export const DENO_FILES: FileView = {
  realPath: (path) => Deno.realPath(path),
  realPathSync: (path) => Deno.realPathSync(path),
  stat: (path) => Deno.stat(path),
  readTextFile: (path) => Deno.readTextFile(path),
};
