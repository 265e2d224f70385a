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

  /// Before: the member's loop, begun while `/run/morsetorch` was missing, went on unseen in
  /// `/tmp/morsetorch-65534` once root made it: her `status` and `stop` said "nothing is being
  /// sent" (3) and her rerun blinked over it (0).
  @Test func aMembersTransmissionIsFoundWhereverItStarted() throws {
    let (fixture, _) = try SharedLED.make()
    let led = "input3::capslock"
    let waitForStatus =
      "i=0; until $MEMBER $MT status >/dev/null 2>&1; do i=$((i+1)); "
      + "[ $i -gt 200 ] && echo never-started && break; sleep 0.05; done; "
    let said = try PrivateMounts.run(
      "mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs /tmp && mkdir -p \"$ROOT\" && "
        + "mount --bind \"$KEPT\" \"$ROOT\" && "
        + "{ $MEMBER $MT send --loop --unit 20 --led \(led) E 2>/tmp/loop.err & } && "
        + waitForStatus + "cat /tmp/loop.err; "
        + "$MT status; echo root $?; "
        + "$MEMBER $MT status; echo member $?; "
        + "$MEMBER $MT send --unit 20 --led \(led) E; echo rerun $?; wait; "
        + "$MEMBER $MT status; echo after $?",
      groupLines: "leds:x:65534:\n",
      environment: ["MORSETORCH_LEDS_DIR": fixture.ledsPath, "ROOT": fixture.root],
      keeping: fixture.root)
    #expect(!said.contains("never-started"), "\(said)")
    #expect(said.contains("does not exist yet"), "\(said)")
    #expect(said.contains("/tmp/morsetorch-65534"), "\(said)")
    #expect(said.contains("root 3\n"), "\(said)")
    #expect(said.contains("member 0\n"), "\(said)")
    #expect(said.contains("sending \"E\""), "\(said)")
    #expect(said.contains("rerun 4\n"), "\(said)")
    #expect(said.contains("after 3\n"), "\(said)")
    #expect(try fixture.read("brightness", of: led) == "0\n")
    #expect(try fixture.read("trigger", of: led).contains("[none]"))
  }
}
