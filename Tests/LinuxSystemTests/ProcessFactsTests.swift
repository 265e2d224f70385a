import Glibc
import Testing

@testable import LinuxSystem

@Suite struct ProcessFactsTests {
  @Test(
    arguments: [
      // The unified hierarchy, a template instance: the name systemctl takes, `\x2d` and all.
      (
        "0::/system.slice/system-morsetorch\\x2dbeacon.slice/morsetorch-beacon@platform::mic\\x2dmute.service\n",
        "morsetorch-beacon@platform::mic\\x2dmute.service"
      ),
      // A user's own service under their manager.
      (
        "0::/user.slice/user-1000.slice/user@1000.service/app.slice/beacon.service\n",
        "beacon.service"
      ),
      // A terminal under the user's manager is no service of its own.
      (
        "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-terminal-1.scope\n",
        nil
      ),
      ("0::/user.slice/user-1000.slice/session-3.scope\n", nil),
      // Legacy and hybrid set-ups: systemd's own hierarchy decides.
      (
        "9:name=systemd:/system.slice/_cgroup.service.service\n4:memory:/x.service\n0::/\n",
        "cgroup.service.service"
      ),
      ("4:memory:/system.slice/a.service\n", nil),
      ("0::/\n", nil), ("", nil),
      // No name systemd would give: not a unit of its.
      ("0::/system.slice/a\u{1B}[2J.service\n", nil), ("0::/system.slice/a b.service\n", nil),
    ] as [(String, String?)])
  func theServiceIsTheLastComponentOfSystemdsPath(cgroup: String, unit: String?) {
    #expect(ProcessFacts.serviceUnit(cgroup: cgroup) == unit)
  }

  @Test func aProcessThatIsGoneHasNoFacts() {
    // Beyond the largest pid Linux gives (2^22).
    #expect(ProcessFacts.serviceUnit(5_000_000) == nil)
    #expect(!ProcessFacts.isStopped(5_000_000))
    #expect(!ProcessFacts.isStopped(getpid()))
  }
}
