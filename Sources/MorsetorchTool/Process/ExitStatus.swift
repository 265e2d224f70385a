/// The statuses morsetorch exits with (sysexits.h where one fits); `--help` lists them.
enum ExitStatus {
  static let success: Int32 = 0
  /// `cwdaemon`: a bad option (a port out of range), or a port it cannot listen on, as
  /// cwdaemon exits, which init scripts written for it expect.
  static let cwdaemonFailure: Int32 = 1
  /// `stop` or `status` found nothing being sent (as LSB init scripts say "not running").
  static let notRunning: Int32 = 3
  /// `send` cancelled another transmission on the LED (the rerun toggle) and sent nothing:
  /// not 0, so a script can tell its text was never sent.
  static let cancelledOther: Int32 = 4
  /// `receive` read nothing at all (no light found, no frame, no edge, no character): not
  /// 0, so a script can tell an empty reading from an empty message.
  static let nothingRead: Int32 = 5
  static let usage: Int32 = 64
  static let dataError: Int32 = 65
  static let unavailable: Int32 = 69
  static let software: Int32 = 70
  /// A limit of the system: no thread (`ulimit -u`, `-v`), no descriptor (`ulimit -n`).
  static let systemError: Int32 = 71
  /// An output file could not be created (`--edges-out`).
  static let cannotCreate: Int32 = 73
  static let ioError: Int32 = 74
  static let temporaryFailure: Int32 = 75
  static let permissionDenied: Int32 = 77
  static let configuration: Int32 = 78

  /// The conventional status after stopping for `signal`: 128 + its number.
  static func signalled(_ signal: Int32) -> Int32 { 128 + signal }
}
