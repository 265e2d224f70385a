/// The version `--version` prints.
let version = "0.1.0"

/// The date of this version, as the manual page carries it.
let releaseDate = "2026-11-22"
