import Foundation
import Glibc
import MorseTestSupport
import Testing

/// The system's shared runtime directory, `/run/morsetorch`, where no systemd-tmpfiles made it:
/// each run in a mount namespace of its own with an empty `/run` and a group `leds` (gid 65534,
/// the member's), so the machine's own `/run` is never touched.
@Suite(.enabled(if: PrivateMounts.areAvailable, PrivateMounts.requirement))
struct SharedRuntimeDirectoryTests {
  /// Runs `script` with `sh` in a new mount namespace whose `/run` and `/tmp` are empty and
  /// whose `/etc/group` has `leds` (PrivateMounts.run). Standard output and error together.
  private func inFreshRun(_ script: String) throws -> String {
    try PrivateMounts.run(
      "mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs /tmp && " + script,
      groupLines: "leds:x:65534:\n")
  }
  @Test func rootMakesItAsThePackageDoesAndTheGroupSharesIt() throws {
    // Before: root made it 0755 root:root and the member went on in /tmp/morsetorch-65534.
    let said = try inFreshRun(
      "$MT status; echo root $?; stat -c 'mode %a owner %u group %g' /run/morsetorch; "
        + "$MEMBER $MT status; echo member $?; ls -d /tmp/morsetorch-65534 2>/dev/null")
    #expect(said.contains("root 3\nmode 3770 owner 0 group 65534\n"), "\(said)")
    #expect(said.contains("member 3\n"), "\(said)")
    #expect(!said.contains("/tmp/morsetorch-65534"), "\(said)")
  }

  @Test func aMemberWhoMayNotUseItIsToldSoRatherThanGoingOnAlone() throws {
    let said = try inFreshRun(
      "install -d -m 755 /run/morsetorch; $MEMBER $MT status; echo member $?")
    #expect(said.contains("member 78\n"), "\(said)")
    #expect(said.contains("is not shared with group leds"), "\(said)")
    #expect(said.contains("chmod 3770 /run/morsetorch"), "\(said)")
  }
}
