/**
 * The command line, the provider file and the redaction of its secrets; where a run works
 * (the workspace layout or a project) and the Deno permissions it holds.
 *
 * @module
 */
export { type CliOptions, type OutputFormat, parseCli, USAGE } from "./cli.ts";
export {
  ConfigError,
  loadProviderConfig,
  type ProviderConfig,
  refuseInsideWorkspace,
} from "./provider_config.ts";
export {
  defaultConfig,
  loadProviderProfiles,
  parseProviderProfiles,
  type ProviderProfiles,
  SINGLE_PROFILE,
  singleProfile,
} from "./profiles.ts";
export { Redactor } from "./redact.ts";
export { knownProviderFiles, readProviderSecrets } from "./provider_files.ts";
export { ownFiles } from "./own_files.ts";
export { startFlags } from "./permission_set.ts";
export { LAUNCH_VARIABLES, SETTINGS_FILE } from "./project.ts";
export {
  LAYOUT_STATE,
  LAYOUT_WORKSPACE,
  locate,
  type Locations,
  PROJECT_MODE_HINT,
} from "./locations.ts";
export { type Grant, type GrantLine, queryGrants } from "./granted.ts";
