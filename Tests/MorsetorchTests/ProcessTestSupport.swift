import Foundation
import Glibc
import MorseTestSupport

// What the end-to-end tests of `send`, `encode`, `decode` and `list` share (SendProcessTests,
// DryRunProcessTests, CommandProcessTests, …): the built executable, run as a child process on
// a temporary LED class directory (never /sys). Each test has a directory of its own, so they
// run in parallel.

/// The LED most process tests send on.
let flash = "white:flash"

/// Runs `morsetorch ARGUMENTS…` on `fixture`'s LED class directory.
func runMorsetorch(
  _ arguments: String..., in fixture: TemporaryLEDDirectory, input: String = "",
  environment: [String: String] = [:]
) throws -> MorsetorchProcess.Outcome {
  try MorsetorchProcess.run(
    arguments, ledsDirectory: fixture.ledsPath, input: input, environment: environment)
}

/// Starts `morsetorch ARGUMENTS…` on `fixture`'s LED class directory, standard input open.
func start(
  _ arguments: String..., in fixture: TemporaryLEDDirectory
) throws -> MorsetorchProcess {
  try MorsetorchProcess(arguments, ledsDirectory: fixture.ledsPath)
}

/// A fixture with one LED, `white:flash`, running the timer trigger with tuned delays.
func timerFixture(trigger: String = "none [timer] heartbeat") throws
  -> TemporaryLEDDirectory
{
  let fixture = try TemporaryLEDDirectory()
  try fixture.addLED(
    flash, maxBrightness: 255, brightness: 7, trigger: trigger,
    attributes: ["delay_on": "100\n", "delay_off": "900\n"])
  return fixture
}

/// Writes `bytes` as a new executable file (mode 0755) at `path`, through a descriptor closed on
/// exec. Foundation's writes and copies are not: a child another test spawns meanwhile would
/// hold the file open for writing, and running it would fail with ETXTBSY ("Text file busy").
func writeExecutable(_ bytes: [UInt8], to path: String) throws {
  let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
  guard file >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  defer { close(file) }
  var offset = 0
  while offset < bytes.count {
    let written = bytes[offset...].withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    offset += written
  }
}
