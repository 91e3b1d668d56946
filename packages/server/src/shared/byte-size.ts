/** A size for people: MiB, KiB or bytes, to one decimal. */
export function byteSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${+(bytes / 1024 / 1024).toFixed(1)} MiB`
    : bytes >= 1024
      ? `${+(bytes / 1024).toFixed(1)} KiB`
      : `${bytes} bytes`;
}

/** Exact bytes, then in a unit people read when that is another: "10000 bytes (9.8 KiB)", "100 bytes". */
export function exactSize(bytes: number): string {
  return bytes >= 1024 ? `${bytes} bytes (${byteSize(bytes)})` : `${bytes} bytes`;
}
