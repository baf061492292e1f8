/** What an `ocs` command is given besides its arguments: where its lines go, and the package's version (`--version`). */
export interface CommandIo {
  out(line: string): void;
  version: string;
}
