/**
 * The command line, the provider file and the redaction of its secrets.
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
