import CWDaemonProtocol
import Testing

@Suite struct CWDaemonSessionTests {
  typealias Session = CWDaemonSession<String>

  private func fresh() -> Session {
    var defaults = CWDaemonSettings()
    defaults.speed = 20
    return Session(defaults: defaults, device: "ttyS0")
  }

  private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  private func replies(_ effects: [Session.Effect]) -> [String] {
    effects.compactMap {
      if case .reply(let bytes, let to) = $0 {
        return "\(to):" + String(decoding: bytes, as: UTF8.self)
      }
      return nil
    }
  }

  private func keys(_ effects: [Session.Effect]) -> Int {
    effects.filter { if case .key = $0 { return true } else { return false } }.count
  }

  @Test func aCaretRepliesToItsSenderOnceTheKeyerIsIdle() {
    var session = fresh()
    let effects = session.handle(bytes("Paris^"), from: "a")
    #expect(keys(effects) == 1)
    #expect(replies(effects).isEmpty)
    #expect(replies(session.keyerIsIdle()) == ["a:Paris\r\n"])
    #expect(session.keyerIsIdle().isEmpty)
  }

  @Test func escHRepliesAfterTheNextTextAndToTheAddressThatAsked() {
    var session = fresh()
    #expect(session.handle(bytes("\u{1B}hreply"), from: "a").isEmpty)
    #expect(session.keyerIsIdle().isEmpty)  // nothing keyed since
    _ = session.handle(bytes("victor"), from: "b")
    #expect(replies(session.keyerIsIdle()) == ["a:hreply\r\n"])
  }

  @Test func abortAnswersAPendingReplyWithBreakInsteadOfIt() {
    var session = fresh()
    _ = session.handle(bytes("long text^"), from: "a")
    let effects = session.handle(bytes("\u{1B}4"), from: "b")
    #expect(effects.first == .abort)
    #expect(replies(effects) == ["a:break\r\n"])
    #expect(session.keyerIsIdle().isEmpty)
    // No reply pending: no break.
    #expect(replies(session.handle(bytes("\u{1B}4"), from: "b")).isEmpty)
  }

  @Test func aTextCutShortFromOutsideAnswersBreak() {
    var session = fresh()
    _ = session.handle(bytes("long^"), from: "a")
    #expect(replies(session.keyerIsIdle(lastTextWasCut: true)) == ["a:break\r\n"])
    #expect(session.keyerIsIdle().isEmpty)
  }

  @Test func wordModeIgnoresAbortUntilReset() {
    var session = fresh()
    _ = session.handle(bytes("\u{1B}6"), from: "a")
    _ = session.handle(bytes("text^"), from: "a")
    #expect(!session.handle(bytes("\u{1B}4"), from: "a").contains(.abort))
    _ = session.handle(bytes("\u{1B}0"), from: "a")
    #expect(!session.isWordMode)
    #expect(session.handle(bytes("\u{1B}4"), from: "a").contains(.abort))
  }

  @Test func resetDropsTheReplySilentlyAndRestoresTheCommandLine() {
    var session = fresh()
    _ = session.handle(bytes("\u{1B}230"), from: "a")
    _ = session.handle(bytes("++E^"), from: "a")
    #expect(session.settings.speed == 34)
    let effects = session.handle(bytes("\u{1B}0"), from: "a")
    #expect(replies(effects).isEmpty)
    #expect(effects.contains(.device("ttyS0")))
    #expect(session.settings == session.defaults)
    #expect(session.keyerIsIdle().isEmpty)
  }

  @Test func speedMarkersLastBeyondTheirRequest() {
    var session = fresh()
    _ = session.handle(bytes("+E"), from: "a")
    #expect(session.settings.speed == 22)
    guard case .key(let keying, _) = session.handle(bytes("E"), from: "a").last else {
      Issue.record("nothing keyed")
      return
    }
    #expect(keying.steps[0].duration == .microseconds(1_200_000 / 22))
  }

  @Test func aCaretAloneKeysNothingAndRepliesNothingYet() {
    var session = fresh()
    #expect(keys(session.handle(bytes("^"), from: "a")) == 0)
    #expect(session.keyerIsIdle().isEmpty)
  }

  @Test func tuneKeysDownForItsSecondsAndZeroDoesNothing() {
    var session = fresh()
    #expect(session.handle(bytes("\u{1B}c3"), from: "a").prefix(2) == [.abort, .tune(.seconds(3))])
    #expect(session.handle(bytes("\u{1B}c0"), from: "a").isEmpty)
  }

  @Test func exitStopsKeyingFirst() {
    var session = fresh()
    #expect(session.handle(bytes("\u{1B}5"), from: "a") == [.abort, .exit])
  }
}
