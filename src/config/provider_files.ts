/**
 * The provider files powercode knows of: the one in use and the others a user may keep keys
 * in. The sandbox masks all of them and the redactor replaces every key found in them, so an
 * old or other key is no easier to reach than the one in use.
 *
 * @module
 */
import { isObject } from "../core/mod.ts";
import { PLACEHOLDER_KEY, type ProviderConfig } from "./provider_config.ts";

/** The provider file used when none is named: `./provider.json`. */
export const DEFAULT_PROVIDER_FILE = "provider.json";
/** The personal copy the README suggests for a literal key, in the git-ignored `.powercode/`. */
export const PERSONAL_PROVIDER_FILE = ".powercode/provider.json";

/**
 * Every provider file powercode knows of, the one in use first, each once: the function to
 * add to when powercode learns of another place for provider files. In the workspace layout
 * also `./provider.json` and `.powercode/provider.json`; in project mode only the one in use,
 * the one file of the configuration directory the program may read (it cannot tell whether
 * another exists, and bubblewrap cannot mask a path that does not).
 */
export function knownProviderFiles(
  locations: { mode: "layout" | "project"; providerFile: string },
): string[] {
  const { mode, providerFile } = locations;
  if (mode === "project") return [providerFile];
  const files = [providerFile, DEFAULT_PROVIDER_FILE, PERSONAL_PROVIDER_FILE];
  const seen = new Set<string>();
  return files.filter((file) => {
    const key = file.replace(/^(\.\/)+/, "");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The endpoints of the provider files at `paths` as far as secrets go: each literal `apiKey`
 * (not `"env:NAME"`) and each `baseURL`, of the single shape and of every profile.
 * Contract: never throws and never checks the files otherwise: a missing, unreadable or
 * invalid file, or a field of another type, adds nothing.
 */
export async function readProviderSecrets(
  paths: readonly string[],
): Promise<Pick<ProviderConfig, "apiKey" | "baseURL">[]> {
  const found: Pick<ProviderConfig, "apiKey" | "baseURL">[] = [];
  for (const path of paths) {
    let data: unknown;
    try {
      data = JSON.parse(await Deno.readTextFile(path));
    } catch {
      continue;
    }
    if (!isObject(data)) continue;
    const profiles = isObject(data.profiles) ? Object.values(data.profiles) : [];
    for (const endpoint of [data, ...profiles]) {
      if (!isObject(endpoint)) continue;
      const { apiKey, baseURL } = endpoint;
      found.push({
        apiKey: typeof apiKey === "string" && !apiKey.startsWith("env:") ? apiKey : PLACEHOLDER_KEY,
        baseURL: typeof baseURL === "string" ? baseURL : "",
      });
    }
  }
  return found;
}
